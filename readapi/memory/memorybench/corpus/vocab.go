package corpus

import "strings"

// Vocabularies are constants ("|"-separated) turned into slices per Generate
// call, so the package holds no mutable state.

const (
	firstNames = `Priya|Arjun|Ananya|Rohan|Kavya|Vikram|Meera|Sanjay|Wei|Mei|Jun|Hao|Lian|Xiu|Yuki|` +
		`Haruto|Sakura|Kenji|Aiko|Ren|Minjun|Jiwoo|Seojun|Hana|Linh|Minh|Thao|Anh|Bao|Somchai|` +
		`Malee|Arif|Siti|Budi|Dewi|Rizal|Amara|Chidi|Ngozi|Emeka|Kwame|Ama|Kofi|Abena|Zanele|` +
		`Thabo|Lindiwe|Sipho|Wanjiru|Otieno|Amina|Fatima|Omar|Layla|Youssef|Karim|Nour|Hassan|` +
		`Zainab|Tariq|Leila|Dariush|Shirin|Reza|Aylin|Emre|Elif|Murat|Ioana|Andrei|Mihai|` +
		`Katarzyna|Piotr|Agnieszka|Tomasz|Jakub|Petra|Lukas|Sofia|Mateo|Valentina|Camila|Diego|` +
		`Lucia|Javier|Carmen|Pablo|Isabela|Joao|Rafael|Beatriz|Thiago|Gabriela|Mariana|Luis|` +
		`Ximena|Alejandro|Marco|Giulia|Francesca|Luca|Chiara|Matteo|Elena|Nikos|Eleni|Dimitri|` +
		`Sven|Astrid|Ingrid|Lars|Freya|Nils|Aino|Eero|Oona|Siobhan|Declan|Niamh|Cormac|Aoife|` +
		`Fergus|Isla|Callum|Eilidh|Gwen|Rhys|Owen|Hugo|Camille|Margaux|Julien|Elodie|Antoine|` +
		`Manon|Lena|Jonas|Greta|Mila|Noah|Emma|Olivia|Liam|Ethan|Chloe|Maya|Zoe|Caleb|` +
		`Jasmine|Marcus|Tanya|Keanu|Leilani|Kai|Aroha|Tane|Mahina|Ari|Noa|Yael|Eitan|Tamar|` +
		`Ivan|Olga|Natasha|Yaroslav|Oksana|Bogdan|Zara|Imran|Ayesha|Bilal|Sana|Farhan|Nadia|Rania`
	lastNames = `Raman|Chen|Okafor|Nakamura|Kowalski|Haddad|Silva|Rossi|Novak|Andersen|Fernandez|Kim|` +
		`Nguyen|Patel|Mensah|Abara|Dubois|Muller|Santos|Kaya|Yilmaz|Hosseini|Rahman|Tanaka|Sato|` +
		`Park|Wang|Zhang|Gupta|Iyer|Reddy|Banerjee|Kapoor|Mehta|Ochieng|Mwangi|Adeyemi|Balogun|` +
		`Diallo|Traore|Nkosi|Dlamini|Botha|Asante|Boateng|Petrov|Volkov|Horvat|Dvorak|Nowak|` +
		`Wojcik|Popescu|Ionescu|Papadopoulos|Georgiou|Pereira|Oliveira|Almeida|Moreno|Castillo|` +
		`Herrera|Vargas|Ramirez|Torres|Navarro|Delgado|Romano|Esposito|Ricci|Bianchi|Fischer|` +
		`Weber|Becker|Hoffmann|Schmidt|Lindqvist|Johansson|Nilsson|Virtanen|Korhonen|Murphy|` +
		`Kelly|Byrne|Walsh|MacLeod|Campbell|Davies|Hughes|Bennett|Hayes|Reyes|Cohen|Levi|` +
		`Friedman|Sharma|Khan|Malik|Chaudhry|Qureshi|Hakimi|Tran|Pham|Suzuki|Watanabe|Yamamoto|` +
		`Choi|Jung|Kang|Huang|Zhou|Santoso|Wijaya|Kealoha`
	orgPrefixes = `Northwind|Acme|Globex|Initech|Bluepeak|Redwood|Ironclad|Silverline|Brightwave|` +
		`Cobalt|Evergreen|Lumen|Nimbus|Orbital|Quantum|Sable|Tidal|Vertex|Zephyr|Harbor|Granite|` +
		`Summit|Meridian|Polaris|Aurora|Crescent|Helix|Keystone|Obsidian|Pinnacle|Riverbend|` +
		`Solstice|Stellar|Trident|Vanguard|Willow|Copperleaf|Halcyon|Arbor|Cinder|Driftwood|` +
		`Foxglove|Bellweather|Starling|Marlowe|Oakhurst|Clearwater|Ashgrove`
	orgSuffixes = `Analytics|Robotics|Labs|Systems|Health|Logistics|Dynamics|Energy|Capital|Foods|` +
		`Media|Networks|Biotech|Software|Studios|Partners|Security|Mobility|Materials|Insurance`

	vDB        = `PostgreSQL|MySQL|MongoDB|Redis|Cassandra|ClickHouse|DynamoDB|SQLite|CockroachDB|Elasticsearch|Neo4j|Snowflake|BigQuery|DuckDB|ScyllaDB|MariaDB`
	vLang      = `Go|Rust|Python|TypeScript|Kotlin|Java|Elixir|Scala|Swift|Ruby|Haskell|Zig|Clojure|OCaml|Dart|Lua`
	vFramework = `React|Vue|Svelte|Django|Rails|FastAPI|Flask|Angular|Laravel|Remix|SolidJS|Ktor|Gin|Quarkus|Astro`
	vInfra     = `Kubernetes|Terraform|Kafka|Docker|Prometheus|Grafana|Airflow|Spark|Flink|Nginx|Envoy|Istio|Ansible|Jenkins|RabbitMQ|NATS|Pulsar|Consul|ArgoCD|Temporal`
	vTool      = `Neovim|VSCode|Emacs|IntelliJ|Jira|Notion|Figma|Postman|Sentry|Datadog|PagerDuty|GitHub|GitLab|Obsidian|Bazel|Zed`
	vConcept   = `event sourcing|zero-trust security|retrieval-augmented generation|data mesh|platform engineering|` +
		`chaos engineering|feature flags|trunk-based development|pair programming|domain-driven design|` +
		`microservices|serverless computing|observability|technical debt|OKRs|the four-day work week|` +
		`remote-first culture|inner sourcing|FinOps|green computing|vector search|prompt engineering|` +
		`accessibility|GDPR compliance|SLOs|blameless postmortems|monorepos|edge computing|` +
		`carbon accounting|design systems|CQRS|property-based testing|shift-left security|continuous delivery`

	vCity = `Lisbon|Berlin|Toronto|Nairobi|Seoul|Austin|Denver|Mumbai|Bangalore|Lagos|Osaka|Melbourne|` +
		`Dublin|Oslo|Warsaw|Prague|Montreal|Vancouver|Singapore|Jakarta|Manila|Bogota|Lima|Madrid|` +
		`Barcelona|Milan|Zurich|Vienna|Helsinki|Stockholm|Copenhagen|Amsterdam|Brussels|Edinburgh|` +
		`Manchester|Seattle|Portland|Boston|Chicago|Atlanta|Miami|Istanbul|Cairo|Accra|Kigali|Hanoi|` +
		`Bangkok|Taipei|Auckland|Perth|Reykjavik|Tallinn|Krakow|Porto|Seville|Lyon|Munich|Hamburg|` +
		`Kyoto|Busan|Chennai|Pune|Casablanca|Tunis|Montevideo|Quito|Valparaiso|Cork|Bristol|Glasgow`
	vFood = `sushi|ramen|tacos|dumplings|paella|falafel|pho|biryani|kimchi|ceviche|lasagna|curry|` +
		`burritos|shawarma|gnocchi|risotto|tempura|pierogi|empanadas|hummus|bibimbap|goulash|` +
		`couscous|moussaka|tapas|poutine|laksa|udon|samosas|gyoza|jollof|injera|tagine|pizza|` +
		`burgers|oysters|mushrooms|cilantro|olives|anchovies|eggplant|durian|okra|liquorice|` +
		`haggis|natto|gorgonzola|beetroot`
	vAllergen   = `peanuts|shellfish|sesame|gluten|dairy|eggs|soy|walnuts|almonds|mustard|celery|lupin|kiwi|strawberries|cashews|buckwheat`
	vHobby      = `bouldering|pottery|chess|surfing|cycling|knitting|birdwatching|photography|gardening|baking|woodworking|kayaking|skiing|snowboarding|swimming|watercolour|calligraphy|origami|fencing|archery|sailing|skateboarding|juggling|yoga|pilates|rowing|hiking|salsa|tango|ceramics|embroidery|beekeeping|astronomy|crosswords|podcasting|fishing|golf|karate|judo|boxing|quilting|sketching|foraging|canoeing|triathlons|parkour|mountaineering|scuba`
	vSport      = `football|basketball|tennis|squash|volleyball|rugby|cricket|hockey|badminton|handball|netball|softball|lacrosse|frisbee|padel|pickleball|baseball|futsal`
	vInstrument = `guitar|bass|drums|keyboards|saxophone|trumpet|violin|cello|ukulele|banjo|mandolin|harmonica|trombone|clarinet|flute|accordion|piano|synthesizer`
	vAuthor     = `Murakami|Atwood|Orwell|Achebe|Morrison|Ishiguro|Adichie|Borges|Calvino|Jemisin|Tolkien|Pratchett|Gaiman|Mantel|Rushdie|Marquez|Allende|Kundera|Tokarczuk|Ferrante|Saramago|Pamuk|Mahfouz|Soyinka|Okorafor|Asimov|Vonnegut|Baldwin|Didion|Woolf|Austen|Dostoevsky|Tolstoy|Camus|Sebald|Bolano|Lispector|Oyeyemi|Tartt|Kingsolver`
	vGenre      = `science fiction|mystery|fantasy|historical|literary|crime|horror|thriller|dystopian|speculative|magical realist|short story`
	vPetKind    = `cat|dog|rabbit|parrot|tortoise|hamster|ferret|rescue greyhound|beagle|border collie|corgi|Maine Coon|budgie|bearded dragon`
	vPetName    = `Biscuit|Mochi|Pepper|Nacho|Waffles|Pickle|Noodle|Ziggy|Mango|Pretzel|Clover|Pip|Bean|Socks|Rocket|Comet|Bubbles|Pixel|Widget|Gizmo|Marble|Nugget|Cinnamon|Nutmeg|Chai|Latte|Fig|Plum|Peaches|Basil|Sage|Ginger|Poppy|Daisy|Hazel|Rufus|Otis|Milo|Winston|Gus|Frankie|Toffee|Fudge|Truffle|Bagel|Muffin|Cookie|Dot`
	vRelative   = `sister|brother|cousin|niece|nephew|aunt|uncle|younger brother|older sister|stepbrother|goddaughter`
	vProject    = `Falcon|Bluebird|Atlas|Nova|Orion|Phoenix|Titan|Hermes|Apollo|Gemini|Mercury|Neptune|Pegasus|Voyager|Zenith|Catalyst|Compass|Horizon|Mosaic|Prism|Quartz|Sapphire|Tundra|Cascade|Glacier|Monsoon|Sirocco|Typhoon|Blizzard|Ember|Flint|Jasper|Onyx|Pebble|Quill|Raven|Sparrow|Heron|Osprey|Pelican|Condor|Magpie|Lynx|Otter|Badger|Marten|Bison|Ibex|Wombat|Tortuga`
	vProduct    = `Sprocket|Lattice|Fathom|Keel|Tessera|Cairn|Anvil|Loom|Spindle|Trellis|Quiver|Bastion|Cadence|Ripple|Vantage|Nexus|Tandem|Waypoint|Yardstick|Beacon|Halyard|Mainsail|Parapet|Rampart|Sextant|Tiller|Windlass|Gantry|Keystroke|Lodestar`
	vAppName    = `Pocketbook|Moodring|Tidepool|Snackstack|Plantpal|Budgetbee|Trailmix|Recipebox|Habitloop|Sleepwell|Chorechart|Petpal|Bookworm|Gigbag|Splitwise|Tripnote|Wordnest|Fitfox|Closetly|Mealmap|Studybuddy|Parkspot|Giftly|Noisegate|Dreamlog`
	vAppKind    = `budgeting|habit-tracking|recipe|plant-care|carpool|language-learning|journaling|meal-planning|bird-spotting|workout|reading-log|flashcard`
	vSystem     = `billing|checkout|search|auth|notifications|payments|reporting|ingestion|scheduler|gateway|inventory|onboarding|invoicing|ledger|catalog|messaging|identity|shipping|telemetry|feeds|ranking|chat|booking|loyalty|refunds|fraud|subscriptions|webhooks`
	vTeam       = `payments|growth|platform|mobile|data|security|infra|frontend|design|support|marketing|finance|research|compliance|localization|partnerships`
	vLanguage   = `Portuguese|Japanese|Korean|Swahili|Mandarin|Cantonese|Italian|German|French|Spanish|Arabic|Hindi|Turkish|Polish|Dutch|Greek|Vietnamese|Thai|Indonesian|Tagalog|Hebrew|Finnish|Swedish|Norwegian|Icelandic|Czech|Hungarian|Ukrainian|Romanian|Yoruba|Amharic|Zulu|Welsh|Irish|Catalan|Tamil|Bengali|Urdu|Persian|Georgian`
	vGift       = `turntable|kettle|drone|telescope|hammock|typewriter|terrarium|grinder|backpack|headlamp|kite|puzzle|bonsai|skateboard|camera|tripod|smartwatch|speaker|blender|cookbook|planner|globe|microscope|chessboard|tent|easel|metronome|snowglobe`
	vGadget     = `monitor|keyboard|webcam|microphone|headset|chair|desk|dock|trackball|lamp|mouse|footrest|laptop|tablet|router|whiteboard|printer|mousepad|stylus|hub|soundbar|treadmill|vacuum|phone|console|television|fridge|toaster|bicycle|scooter|projector|camera`
	vCert       = `CKA|CKAD|CKS|CISSP|PMP|CCNA|CCNP|CISM|OSCP|TOGAF|ITIL|CSM|PSM|CISA|CEH|CCSP`
	vCause      = `food bank|animal shelter|community garden|literacy program|coding club for teens|refugee support center|hospice|river cleanup group|homeless shelter|youth football league|public library|senior center`
	vSkill      = `observability|testing|security|networking|accessibility|performance|compilers|SQL|concurrency|cryptography|localization|reliability|scalability|frontend|infrastructure|automation|debugging|profiling|search|streaming`
	vRoleOpen   = `senior backend engineer|staff frontend engineer|data platform engineer|site reliability engineer|product designer|engineering manager|security engineer|mobile engineer|machine learning engineer|QA automation engineer`
	vRestaurant = `Marigold|Lotus|Cardamom|Pomegranate|Tamarind|Lantern|Copper|Fennel|Sorrel|Brindle|Ginkgo|Bamboo|Harissa|Pimento|Oregano|Zaatar|Sumac|Umami|Kinfolk|Larder|Pantry|Hearth|Morsel|Nibble|Crumb|Ladle|Skillet|Wok|Tavola|Cucina|Comal|Masa|Saffron|Nonna|Anchor|Bodega`
	vCuisine    = `Thai|Ethiopian|Georgian|Peruvian|Sichuan|Lebanese|Vietnamese|Oaxacan|Korean|Basque|Filipino|Turkish|Malaysian|Nepalese|Moroccan|Sri Lankan|Burmese|Ukrainian`
	vTier       = `Enterprise|Premium|Growth|Starter|Business|Pro|Platinum|Gold|Scale|Essentials|Ultimate|Plus|Advanced|Professional|Elite|Silver`
	vCategory   = `observability|analytics|billing|security|collaboration|workflow automation|data integration|customer support|identity management|document signing`
	vDepartment = `marketing|sales|engineering|support|finance|legal|operations|design|research|procurement|partnerships|facilities|product`
	vStandard   = `SOC2|ISO27001|HIPAA|GDPR|FedRAMP|CCPA|NIST|TISAX|PCI|DORA|NIS2|ISO42001`
	vInvestor   = `Lakeside Ventures|Foundry Capital|Granite Peak Partners|Blue Harbor Fund|Northstar Growth|Kiln Ventures|Sixfold Capital|Meadow Partners|Longshore Ventures|Beacon Hill Capital`
	vLetter     = `A|B|C|D|E`
	vSymptom    = `deadlock|leak|timeout|crash|regression|slowdown|hang|panic|corruption|stall|overflow|livelock|thrashing|starvation`
	vSetting    = `maxConnections|poolSize|batchSize|retentionHours|replicaCount|heapSize|workerThreads|timeoutMs|cacheTtl|queueDepth|flushInterval|maxInflight|prefetchCount|gcPercent`
	vValue      = `8|16|32|64|128|256|500|1000|2000|4096|30|90`
	vFeature    = `v1|batch|admin|streaming|bulk|metrics|export|webhook|replication|snapshot|legacy|sync`
	vMetric     = `MTTR|uptime|throughput|latency|churn|NPS|velocity|deployments|coverage|toil|onboarding|errors`
	vDoc        = `passport|visa|lease|insurance|registration|membership|warranty|permit|domain|license|certificate|subscription|mortgage|prescription|broadband|pension|residency|vaccination|tenancy`
	vFault      = `expired TLS certificate|full disk|bad config push|runaway cron job|DNS misconfiguration|connection pool exhaustion|memory leak|noisy neighbour|clock skew|botched schema migration`
	vTime       = `9:00|9:30|10:00|10:30|11:15|13:00|14:00|15:30|16:00|16:45`
	vWeekday    = `Monday|Tuesday|Wednesday|Thursday|Friday`

	roleValues   = `data engineer|product manager|UX designer|site reliability engineer|backend developer|data scientist|security engineer|engineering manager|solutions architect|technical writer|developer advocate|QA analyst|mobile developer|machine learning engineer|frontend developer|program manager`
	titleLadder  = `Associate|Senior Associate|Lead|Senior Lead|Principal|Director|Senior Director|Vice President`
	statusValues = `full-time|part-time|on parental leave|on sabbatical|on medical leave|a contractor|on a four-day week`
)

// techCategories names the slot categories that draw from technology lists.
func techCategories() map[string]string {
	return map[string]string{"DB": vDB, "Lang": vLang, "Framework": vFramework, "Infra": vInfra, "Tool": vTool}
}

// newVocab returns slot vocabularies keyed by slot base name.
func newVocab() map[string][]string {
	raw := map[string]string{
		"City": vCity, "Food": vFood, "Allergen": vAllergen, "Hobby": vHobby, "Sport": vSport,
		"Instrument": vInstrument, "Author": vAuthor, "Genre": vGenre, "PetKind": vPetKind,
		"PetName": vPetName, "Relative": vRelative, "Project": vProject, "Product": vProduct,
		"AppName": vAppName, "AppKind": vAppKind, "System": vSystem, "Team": vTeam,
		"Language": vLanguage, "Gift": vGift, "Gadget": vGadget, "Cert": vCert, "Cause": vCause,
		"Skill": vSkill, "RoleOpen": vRoleOpen, "Restaurant": vRestaurant, "Cuisine": vCuisine,
		"Tier": vTier, "Category": vCategory, "Department": vDepartment, "Standard": vStandard,
		"Investor": vInvestor, "Letter": vLetter, "Symptom": vSymptom, "Setting": vSetting,
		"Value": vValue, "Feature": vFeature, "Metric": vMetric, "Doc": vDoc, "Fault": vFault,
		"Time": vTime, "Weekday": vWeekday, "Concept": vConcept,
		"Writer": lastNames, "First": firstNames,
	}
	for k, v := range techCategories() {
		raw[k] = v
	}
	out := make(map[string][]string, len(raw))
	for k, v := range raw {
		out[k] = split(v)
	}
	return out
}

func split(s string) []string { return strings.Split(s, "|") }
