package template

import (
	"bytes"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
)

// MaxColumns is how many fields the list of an entity shows: its first
// fields other than long texts (the first field always); the form shows
// them all.
const MaxColumns = 4

type pageView struct {
	Version, AppName, Idea string
	Entities               []entityView
}

type entityView struct {
	Name, Label, Lower, Plural, PluralLabel, PluralLower string
	Fields, Columns                                      []fieldView
}

type fieldView struct {
	ID, Name, Label, Type, Control, InputType, Pattern, Hint string
	Required                                                 bool
	MaxLength                                                int
	Options                                                  []string
}

// fieldLimits are the longest strings the server accepts, by field type.
func fieldLimits() map[string]int {
	return map[string]int{TypeText: 200, TypeLongText: 5000, TypeEmail: 254, TypeURL: 2000, TypePhone: 32}
}

// inputTypes maps field types to the type of their <input>.
func inputTypes() map[string]string {
	return map[string]string{TypeText: "text", TypeNumber: "number", TypeMoney: "text", TypeDate: "date",
		TypeTime: "time", TypeEmail: "email", TypeURL: "url", TypePhone: "tel"}
}

func viewOf(e Entity) entityView {
	v := entityView{Name: e.Name, Label: e.Label, Lower: strings.ToLower(e.Label), Plural: e.Plural,
		PluralLabel: pluralLabel(e), PluralLower: strings.ToLower(pluralLabel(e))}
	for _, f := range e.Fields {
		fv := fieldView{ID: "field-" + e.Name + "-" + f.Name, Name: f.Name, Label: f.Label, Type: f.Type,
			Required: f.Required, MaxLength: fieldLimits()[f.Type], Options: f.Options,
			Control: "input", InputType: inputTypes()[f.Type]}
		switch f.Type {
		case TypeLongText:
			fv.Control = "textarea"
		case TypeEnum:
			fv.Control = "select"
		case TypeBool:
			fv.Control = "checkbox"
		case TypeMoney:
			fv.Pattern = `-?[0-9]{1,13}([.][0-9]{1,2})?`
			fv.Hint = "A decimal with up to two places, like 12.50"
		}
		v.Fields = append(v.Fields, fv)
	}
	for i, fv := range v.Fields {
		if len(v.Columns) < MaxColumns && (i == 0 || fv.Type != TypeLongText) {
			v.Columns = append(v.Columns, fv)
		}
	}
	return v
}

func renderIndex(s Spec) ([]byte, error) {
	t, err := htmltemplate.ParseFS(assets, "assets/index.html.tmpl")
	if err != nil {
		return nil, err
	}
	page := pageView{Version: Version, AppName: s.AppName, Idea: s.Idea}
	for _, e := range s.Entities {
		page.Entities = append(page.Entities, viewOf(e))
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, page); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type readmeView struct {
	Version, AppName, Summary, Archetype, PluralList string
	Score                                            int
	IdeaLines, Assumptions                           []string
	Entities                                         []readmeEntity
	Lexicon                                          []readmeLexicon
}

type readmeEntity struct {
	Plural, PluralLabel, Matched string
	Fields                       []readmeField
}

type readmeField struct {
	Name, Label, Type, OptionList string
	Required                      bool
}

type readmeLexicon struct {
	Archetype, Strong, Signs, Hints string
	Chosen                          bool
}

func renderReadme(s Spec) ([]byte, error) {
	t, err := texttemplate.New("README.md.tmpl").Funcs(texttemplate.FuncMap{"cell": cell}).
		ParseFS(assets, "assets/README.md.tmpl")
	if err != nil {
		return nil, err
	}
	v := readmeView{Version: Version, AppName: s.AppName, Archetype: s.Archetype, Assumptions: s.Assumptions,
		Summary:   "An app that " + summaryOf(s.Archetype) + " (archetype: `" + s.Archetype + "`).",
		IdeaLines: strings.Split(strings.ReplaceAll(s.Idea, "\r\n", "\n"), "\n"),
		Score:     scoreOf(s)}
	var plurals []string
	for _, e := range s.Entities {
		re := readmeEntity{Plural: e.Plural, PluralLabel: pluralLabel(e), Matched: quoteList(e.Matched)}
		for _, f := range e.Fields {
			re.Fields = append(re.Fields, readmeField{Name: f.Name, Label: f.Label, Type: f.Type,
				Required: f.Required, OptionList: strings.Join(f.Options, ", ")})
		}
		v.Entities = append(v.Entities, re)
		plurals = append(plurals, "`"+e.Plural+"`")
	}
	v.PluralList = orList(plurals)
	for _, e := range Lexicon() {
		v.Lexicon = append(v.Lexicon, readmeLexicon{Archetype: e.Archetype, Chosen: e.Archetype == s.Archetype,
			Strong: strings.Join(e.Strong, ", "), Signs: strings.Join(e.Signs, ", "), Hints: strings.Join(e.Hints, ", ")})
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// scoreOf recomputes the score of the spec's archetype from its idea; 0
// when no cue of that archetype is in the idea (the fallback, or a spec
// edited after Plan).
func scoreOf(s Spec) int {
	return chooseArchetype(tokenize(s.Idea)).Scores[s.Archetype]
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// orList joins items: "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
