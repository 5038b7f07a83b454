package template

// EntityDef is a catalogue entry: an entity with its typed fields, the
// names of extra entities it already stands for, and an assumption to show
// the founder whenever the entity is part of an app.
type EntityDef struct {
	Name    string
	Label   string
	Plural  string
	Fields  []Field
	Covers  []string // extra entities this one makes redundant: a client covers "customer"
	Note    string   // an assumption sentence, or ""
	Summary string   // what one record is, for the README: "a booking of a service"
}

// ArchetypeDef gives an archetype its core entities. Fallback entities are
// used only when the idea pulls in no extra entity (the tracker's generic
// entries give way to workouts or habits).
type ArchetypeDef struct {
	Archetype string
	Core      []EntityDef
	Fallback  []EntityDef
}

func req(name, label, typ string) Field {
	return Field{Name: name, Label: label, Type: typ, Required: true}
}
func opt(name, label, typ string) Field { return Field{Name: name, Label: label, Type: typ} }
func choice(name, label string, required bool, options ...string) Field {
	return Field{Name: name, Label: label, Type: TypeEnum, Required: required, Options: options}
}

// Catalogue returns every archetype's core entities, in the order of
// Archetypes().
func Catalogue() []ArchetypeDef {
	return []ArchetypeDef{
		{Archetype: "marketplace", Core: []EntityDef{
			{Name: "seller", Label: "Seller", Plural: "sellers", Covers: []string{"supplier"},
				Summary: "someone who sells through the marketplace",
				Fields: []Field{req("name", "Name", TypeText), req("email", "Email", TypeEmail),
					opt("location", "Location", TypeText), opt("bio", "About the seller", TypeLongText)}},
			{Name: "listing", Label: "Listing", Plural: "listings",
				Summary: "one thing a seller offers",
				Fields: []Field{req("title", "Title", TypeText), req("seller", "Seller", TypeText),
					req("price", "Price", TypeMoney), opt("category", "Category", TypeText),
					opt("description", "Description", TypeLongText),
					choice("status", "Status", true, "available", "reserved", "sold")}},
			{Name: "order", Label: "Order", Plural: "orders",
				Summary: "a buyer's order of a listing",
				Note:    "Orders are recorded in the app; it takes no payments",
				Fields: []Field{req("listing", "Listing", TypeText), req("buyer_name", "Buyer name", TypeText),
					req("buyer_email", "Buyer email", TypeEmail), req("quantity", "Quantity", TypeNumber),
					choice("status", "Status", true, "new", "paid", "shipped", "completed", "cancelled"),
					opt("ordered_on", "Ordered on", TypeDate)}},
		}},
		{Archetype: "booking", Core: []EntityDef{
			{Name: "service", Label: "Service", Plural: "services",
				Summary: "something that can be booked",
				Fields: []Field{req("name", "Name", TypeText), req("duration_minutes", "Duration (minutes)", TypeNumber),
					opt("price", "Price", TypeMoney), opt("description", "Description", TypeLongText)}},
			{Name: "booking", Label: "Booking", Plural: "bookings",
				Summary: "a customer's booking of a service",
				Note:    "Every booking has a date and a time; the app does not check that bookings overlap",
				Fields: []Field{req("customer_name", "Customer name", TypeText),
					req("customer_email", "Customer email", TypeEmail), opt("customer_phone", "Customer phone", TypePhone),
					req("service", "Service", TypeText), req("date", "Date", TypeDate), req("time", "Time", TypeTime),
					choice("status", "Status", true, "requested", "confirmed", "cancelled", "completed"),
					opt("notes", "Notes", TypeLongText)}},
		}},
		{Archetype: "crm", Core: []EntityDef{
			{Name: "contact", Label: "Contact", Plural: "contacts", Covers: []string{"customer"},
				Summary: "a person you sell to",
				Fields: []Field{req("name", "Name", TypeText), opt("email", "Email", TypeEmail),
					opt("phone", "Phone", TypePhone), opt("company", "Company", TypeText),
					opt("notes", "Notes", TypeLongText)}},
			{Name: "deal", Label: "Deal", Plural: "deals",
				Summary: "a sale in progress with a contact",
				Note:    "A deal moves through the stages lead, qualified, proposal, won and lost",
				Fields: []Field{req("title", "Title", TypeText), req("contact", "Contact", TypeText),
					opt("value", "Value", TypeMoney),
					choice("stage", "Stage", true, "lead", "qualified", "proposal", "won", "lost"),
					opt("expected_close", "Expected close", TypeDate)}},
		}},
		{Archetype: "store", Core: []EntityDef{productDef(), orderDef()}},
		{Archetype: "directory", Core: []EntityDef{
			{Name: "listing", Label: "Listing", Plural: "listings",
				Summary: "one place or business in the directory",
				Fields: []Field{req("name", "Name", TypeText), opt("category", "Category", TypeText),
					opt("address", "Address", TypeText), opt("city", "City", TypeText),
					opt("website", "Website", TypeURL), opt("phone", "Phone", TypePhone),
					opt("description", "Description", TypeLongText)}},
			categoryDef(),
		}},
		{Archetype: "helpdesk", Core: []EntityDef{
			{Name: "ticket", Label: "Ticket", Plural: "tickets",
				Summary: "one request for help",
				Note:    "Tickets are entered in the app; it does not receive email",
				Fields: []Field{req("subject", "Subject", TypeText), req("requester_email", "Requester email", TypeEmail),
					req("description", "Description", TypeLongText),
					choice("priority", "Priority", true, "low", "normal", "high", "urgent"),
					choice("status", "Status", true, "open", "pending", "resolved", "closed")}},
			{Name: "customer", Label: "Customer", Plural: "customers",
				Summary: "someone who asks for help",
				Fields: []Field{req("name", "Name", TypeText), req("email", "Email", TypeEmail),
					opt("company", "Company", TypeText), opt("plan", "Plan", TypeText)}},
		}},
		{Archetype: "courses", Core: []EntityDef{
			{Name: "course", Label: "Course", Plural: "courses",
				Summary: "a course on offer",
				Fields: []Field{req("title", "Title", TypeText), opt("summary", "Summary", TypeLongText),
					opt("price", "Price", TypeMoney),
					choice("level", "Level", false, "beginner", "intermediate", "advanced"),
					opt("published", "Published", TypeBool)}},
			{Name: "lesson", Label: "Lesson", Plural: "lessons",
				Summary: "one lesson of a course",
				Note:    "Lessons hold text and a video link; the app hosts no video",
				Fields: []Field{req("course", "Course", TypeText), req("title", "Title", TypeText),
					req("position", "Position in the course", TypeNumber), opt("content", "Content", TypeLongText),
					opt("video_url", "Video URL", TypeURL)}},
			{Name: "student", Label: "Student", Plural: "students", Covers: []string{"customer", "member"},
				Summary: "someone enrolled in a course",
				Fields: []Field{req("name", "Name", TypeText), req("email", "Email", TypeEmail),
					req("course", "Course", TypeText), opt("enrolled_on", "Enrolled on", TypeDate)}},
		}},
		{Archetype: "invoicing", Core: []EntityDef{
			{Name: "client", Label: "Client", Plural: "clients", Covers: []string{"customer"},
				Summary: "someone you invoice",
				Fields: []Field{req("name", "Name", TypeText), req("email", "Email", TypeEmail),
					opt("company", "Company", TypeText), opt("address", "Address", TypeLongText)}},
			invoiceDef(),
		}},
		{Archetype: "community", Core: []EntityDef{
			{Name: "member", Label: "Member", Plural: "members",
				Summary: "a member of the community",
				Fields: []Field{req("name", "Name", TypeText), req("email", "Email", TypeEmail),
					opt("bio", "About", TypeLongText), opt("joined_on", "Joined on", TypeDate)}},
			postDef(),
		}},
		{Archetype: "tracker", Fallback: []EntityDef{
			{Name: "entry", Label: "Entry", Plural: "entries",
				Summary: "one dated entry of the log",
				Note:    "An entry has a title, a date, an optional number and notes, because nothing more specific was named",
				Fields: []Field{req("title", "Title", TypeText), req("date", "Date", TypeDate),
					opt("value", "Value", TypeNumber), opt("notes", "Notes", TypeLongText)}},
		}},
	}
}
