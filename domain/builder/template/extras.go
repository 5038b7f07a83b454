package template

// ExtraDef is an extra entity of the catalogue: any archetype's app gets it
// when one of its Triggers is among the idea's words (stemmed, see Stem),
// unless an entity of the same name, or one that Covers it, is already in
// the app. Every trigger belongs to one extra only (a test checks it).
type ExtraDef struct {
	EntityDef
	Triggers []string
}

// MaxExtras is how many extra entities one app takes at most; further ones
// are left out and the assumptions say which.
const MaxExtras = 5

// Extras returns the extra entities of the catalogue.
func Extras() []ExtraDef {
	return []ExtraDef{
		{Triggers: []string{"review", "rating", "feedback", "testimonial"}, EntityDef: EntityDef{
			Name: "review", Label: "Review", Plural: "reviews", Summary: "a review with a rating from 1 to 5",
			Fields: []Field{req("author", "Author", TypeText), choice("rating", "Rating", true, "1", "2", "3", "4", "5"),
				opt("about", "About", TypeText), opt("comment", "Comment", TypeLongText), opt("date", "Date", TypeDate)}}},
		{Triggers: []string{"customer", "client", "patient", "guest"}, EntityDef: EntityDef{
			Name: "customer", Label: "Customer", Plural: "customers", Summary: "a customer's details",
			Fields: []Field{req("name", "Name", TypeText), opt("email", "Email", TypeEmail),
				opt("phone", "Phone", TypePhone), opt("notes", "Notes", TypeLongText)}}},
		{Triggers: []string{"staff", "employee", "instructor", "teacher", "stylist", "trainer", "therapist", "coach"},
			EntityDef: EntityDef{Name: "staff_member", Label: "Staff member", Plural: "staff_members",
				Summary: "someone who works for the business",
				Fields: []Field{req("name", "Name", TypeText), opt("role", "Role", TypeText),
					opt("email", "Email", TypeEmail), opt("phone", "Phone", TypePhone)}}},
		{Triggers: []string{"room", "venue"}, EntityDef: EntityDef{
			Name: "room", Label: "Room", Plural: "rooms", Summary: "a room or venue",
			Fields: []Field{req("name", "Name", TypeText), opt("capacity", "Capacity", TypeNumber),
				opt("notes", "Notes", TypeLongText)}}},
		{Triggers: []string{"class", "workshop"}, EntityDef: EntityDef{
			Name: "class", Label: "Class", Plural: "classes", Summary: "a scheduled class",
			Note: "A class has a date, a time and a capacity; the app does not count who booked it",
			Fields: []Field{req("title", "Title", TypeText), opt("instructor", "Instructor", TypeText),
				req("date", "Date", TypeDate), req("time", "Time", TypeTime), opt("capacity", "Capacity", TypeNumber)}}},
		{Triggers: []string{"lesson", "module", "chapter", "tutorial"}, EntityDef: EntityDef{
			Name: "lesson", Label: "Lesson", Plural: "lessons", Summary: "one lesson",
			Fields: []Field{req("title", "Title", TypeText), opt("date", "Date", TypeDate),
				opt("time", "Time", TypeTime), opt("notes", "Notes", TypeLongText)}}},
		{Triggers: []string{"event", "meetup", "conference", "concert", "gig"}, EntityDef: EntityDef{
			Name: "event", Label: "Event", Plural: "events", Summary: "an event on a date",
			Fields: []Field{req("title", "Title", TypeText), req("date", "Date", TypeDate), opt("time", "Time", TypeTime),
				opt("location", "Location", TypeText), opt("description", "Description", TypeLongText)}}},
		{Triggers: []string{"product", "merch", "merchandise"}, EntityDef: productDef()},
		{Triggers: []string{"order", "purchase", "checkout"}, EntityDef: orderDef()},
		{Triggers: []string{"ship", "shipment", "delivery", "deliver"}, EntityDef: EntityDef{
			Name: "shipment", Label: "Shipment", Plural: "shipments", Summary: "the shipment of an order",
			Fields: []Field{req("order", "Order", TypeText), opt("carrier", "Carrier", TypeText),
				opt("tracking_number", "Tracking number", TypeText),
				choice("status", "Status", true, "preparing", "shipped", "delivered", "returned"),
				opt("shipped_on", "Shipped on", TypeDate)}}},
		{Triggers: []string{"supplier", "wholesaler", "distributor"}, EntityDef: EntityDef{
			Name: "supplier", Label: "Supplier", Plural: "suppliers", Summary: "a supplier",
			Fields: []Field{req("name", "Name", TypeText), opt("contact_name", "Contact name", TypeText),
				opt("email", "Email", TypeEmail), opt("phone", "Phone", TypePhone), opt("notes", "Notes", TypeLongText)}}},
		{Triggers: []string{"task", "todo", "chore", "errand"}, EntityDef: EntityDef{
			Name: "task", Label: "Task", Plural: "tasks", Summary: "something to do",
			Fields: []Field{req("title", "Title", TypeText), opt("due_on", "Due on", TypeDate),
				opt("done", "Done", TypeBool), opt("notes", "Notes", TypeLongText)}}},
		{Triggers: []string{"project"}, EntityDef: EntityDef{
			Name: "project", Label: "Project", Plural: "projects", Summary: "a project",
			Fields: []Field{req("name", "Name", TypeText), opt("client", "Client", TypeText),
				choice("status", "Status", true, "planned", "active", "on hold", "done"),
				opt("deadline", "Deadline", TypeDate)}}},
		{Triggers: []string{"expense", "spending", "receipt", "cost"}, EntityDef: EntityDef{
			Name: "expense", Label: "Expense", Plural: "expenses", Summary: "money spent",
			Fields: []Field{req("description", "Description", TypeText), req("amount", "Amount", TypeMoney),
				req("spent_on", "Spent on", TypeDate), opt("category", "Category", TypeText)}}},
		{Triggers: []string{"member", "membership", "subscriber"}, EntityDef: EntityDef{
			Name: "member", Label: "Member", Plural: "members", Summary: "a member",
			Fields: []Field{req("name", "Name", TypeText), req("email", "Email", TypeEmail),
				opt("plan", "Plan", TypeText), opt("joined_on", "Joined on", TypeDate)}}},
		{Triggers: []string{"post", "article", "blog", "discussion", "thread"}, EntityDef: postDef()},
		{Triggers: []string{"message", "inquiry", "enquiry"}, EntityDef: EntityDef{
			Name: "message", Label: "Message", Plural: "messages", Summary: "a message received",
			Fields: []Field{req("sender_name", "Sender name", TypeText), req("sender_email", "Sender email", TypeEmail),
				req("body", "Message", TypeLongText), opt("received_on", "Received on", TypeDate)}}},
		{Triggers: []string{"property", "estate", "apartment", "house", "rental"}, EntityDef: EntityDef{
			Name: "property", Label: "Property", Plural: "properties", Summary: "a property for sale or rent",
			Fields: []Field{req("address", "Address", TypeText), opt("price", "Price", TypeMoney),
				opt("bedrooms", "Bedrooms", TypeNumber),
				choice("status", "Status", true, "available", "under offer", "sold", "let")}}},
		{Triggers: []string{"workout", "exercise", "gym", "fitness", "jog", "cardio"}, EntityDef: EntityDef{
			Name: "workout", Label: "Workout", Plural: "workouts", Summary: "one workout",
			Fields: []Field{choice("activity", "Activity", true, "run", "ride", "swim", "walk", "strength", "other"),
				req("date", "Date", TypeDate), req("duration_minutes", "Duration (minutes)", TypeNumber),
				opt("distance_km", "Distance (km)", TypeNumber), opt("notes", "Notes", TypeLongText)}}},
		{Triggers: []string{"habit", "streak"}, EntityDef: EntityDef{
			Name: "habit", Label: "Habit", Plural: "habits", Summary: "a habit to keep",
			Fields: []Field{req("name", "Name", TypeText),
				choice("frequency", "Frequency", true, "daily", "weekly", "monthly"),
				opt("started_on", "Started on", TypeDate), opt("active", "Active", TypeBool)}}},
		{Triggers: []string{"goal", "target", "milestone"}, EntityDef: EntityDef{
			Name: "goal", Label: "Goal", Plural: "goals", Summary: "a goal with a target",
			Fields: []Field{req("name", "Name", TypeText), opt("target", "Target", TypeNumber),
				opt("due_on", "Due on", TypeDate), opt("achieved", "Achieved", TypeBool)}}},
		{Triggers: []string{"payment", "deposit", "refund"}, EntityDef: EntityDef{
			Name: "payment", Label: "Payment", Plural: "payments", Summary: "a payment received",
			Note: "Payments are recorded by hand; the app connects to no payment provider",
			Fields: []Field{req("payer", "Payer", TypeText), req("amount", "Amount", TypeMoney),
				req("paid_on", "Paid on", TypeDate),
				choice("method", "Method", true, "card", "bank transfer", "cash", "other"),
				opt("reference", "Reference", TypeText)}}},
		{Triggers: []string{"invoice", "invoicing", "billing"}, EntityDef: invoiceDef()},
		{Triggers: []string{"category"}, EntityDef: categoryDef()},
	}
}
