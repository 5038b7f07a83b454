package extract

// Small closed word classes used by the recognisers. All are read-only.

// common lists words that are capitalised at a sentence start (or in
// notes) without being names: function words, time words, note jargon.
var common = setOf(`a an the this that these those my our your his her their its i we you he she
they it me us them who what which where when why how today yesterday tomorrow tonight now then
later soon recently currently also finally just still maybe perhaps please thanks thank hi hello
hey dear note notes meeting meetings reminder remind update updates todo call calls lunch dinner
coffee breakfast brunch sync standup retro review morning afternoon evening weekend weekends next
last every each all some any no not never always everyone everybody someone somebody nobody
anyone team mom mum dad wife husband boss manager q1 q2 q3 q4 re fyi fwd asap ok okay yes so
but and or if while because since after before during in on at for with from to of by about as
is are was were be been has have had do does did will would can could should might must let
great good new old big small first second happy important urgent quick follow followup discussed
met talked remember ask tell send book schedule check buy pick email ping visited went go get
got make made take took need needs want wants like likes love loves hate hates use uses using
done bug fix idea ideas plan plans goal goals project projects deadline agenda action item items
question questions answer summary status prefers prefer interested working works work lives
live moved moving based joined left quit met there here per via vs um oh wow cool nice sure
happy birthday congrats congratulations welcome sorry sad tired busy free ready keep keeps
several many few most more less other another both either neither such own same dev prod`)

// months and weekdays are never names on their own.
var months = setOf(`january february march april may june july august september october november
december jan feb mar apr jun jul aug sep sept oct nov dec`)

var weekdays = setOf(`monday tuesday wednesday thursday friday saturday sunday mondays tuesdays
wednesdays thursdays fridays saturdays sundays`)

// honorifics introduce a person's name.
var honorifics = setOf("dr mr mrs ms mx miss prof professor sir dame lord lady rev")

// personCues are verbs and prepositions after which a capitalised word is
// a person: "met Sarah", "told Kwame", "lunch with Dana Kim".
var personCues = setOf(`met meet meeting told tell ask asked call called email emailed ping pinged
thank thanked thanks cc introduced introduce invite invited texted text message messaged
congratulate congratulated interviewed interview remind reminded hug hugged visit visited`)

// relationNouns follow "my/his/her/'s" and precede a person's name:
// "my wife Julia", "Alice's manager Bob".
var relationNouns = setOf(`wife husband spouse partner manager boss supervisor colleague coworker
co-worker friend sister brother mother father mom mum dad son daughter cousin uncle aunt niece
nephew grandma grandpa grandmother grandfather mentor mentee teammate cofounder co-founder
roommate flatmate neighbor neighbour fiancé fiancée fiance fiancee girlfriend boyfriend assistant
report intern doctor dentist therapist lawyer accountant landlord ceo cto cfo coo vp lead kid child`)

// roleHeads end a job-role phrase ("senior software engineer").
var roleHeads = setOf(`engineer engineers developer programmer designer manager director scientist
researcher analyst architect consultant founder cofounder co-founder ceo cto cfo coo cmo cpo ciso
cio vp svp evp president chair chairman chairwoman chairperson lead intern student professor
lecturer teacher nurse doctor physician surgeon lawyer attorney accountant recruiter writer editor
journalist partner associate advisor adviser investor officer specialist coordinator administrator
technician pm tpm sre marketer strategist principal fellow postdoc chef pilot artist photographer
musician owner evangelist advocate representative executive salesperson trainer coach therapist
pharmacist dentist veterinarian mechanic electrician contractor freelancer librarian paralegal
economist statistician mathematician physicist chemist biologist translator producer dba
head superintendent commissioner secretary treasurer principal-engineer staff-engineer`)

// departments complete "head of X", "VP of X".
var departments = setOf(`engineering product design marketing sales operations ops research data
finance people hr growth platform infrastructure security technology it legal partnerships
business development strategy communications content customer success support analytics ai ml
talent recruiting brand procurement quality mobile frontend backend devops`)

// roleAdjectives may precede a role but are not part of it.
var roleAdjectives = setOf(`great good excellent amazing brilliant talented new nice awesome fantastic
wonderful incredible solid strong experienced`)

// determiners are skipped before objects.
var determiners = setOf("the a an my our his her their your its some this that these those")

// techCuesBefore and techCuesAfter make an ambiguous word (Go, Rust,
// Swift) a technology.
var techCuesBefore = setOf(`use uses using used write writes writing written wrote code codes coding
coded learn learns learning learned program programs programming try trying tried switch switched
switching migrate migrated migrating adopt adopted like likes love loves prefer prefers hate hates
dislike dislikes know knows stack rewrite rewrote rewriting port ported build built building
favorite favourite experience proficient expert deploy deployed deploying run runs running`)

var techCuesAfter = setOf(`language languages lang code codebase programming program framework
library libraries service services backend frontend app apps api apis sdk compiler developer
developers engineer engineers dev devs project version module modules package packages crate
crates runtime toolchain generics binary binaries script scripts server servers cluster
clusters database databases db query queries microservice microservices stack deployment
deployments container containers pipeline pipelines tests test`)

// strongTechCues make even a lower-case ambiguous word a technology
// ("i use go", "learning rust").
var strongTechCues = setOf(`use uses using learn learns learning learned love loves like likes
prefer prefers hate hates`)
