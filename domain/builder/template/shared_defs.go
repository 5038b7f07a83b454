package template

// Entities that are core to one archetype and an extra for the others are
// defined once here, so an "order" is the same wherever it appears.

func productDef() EntityDef {
	return EntityDef{Name: "product", Label: "Product", Plural: "products", Summary: "a product for sale",
		Fields: []Field{req("name", "Name", TypeText), req("price", "Price", TypeMoney),
			opt("sku", "SKU", TypeText), opt("stock", "In stock", TypeNumber),
			opt("description", "Description", TypeLongText), opt("available", "Available", TypeBool)}}
}

func orderDef() EntityDef {
	return EntityDef{Name: "order", Label: "Order", Plural: "orders", Summary: "a customer's order",
		Note: "An order lists its items as text and its total is entered, not computed; the app takes no payments",
		Fields: []Field{req("customer_name", "Customer name", TypeText),
			req("customer_email", "Customer email", TypeEmail), req("items", "Items", TypeLongText),
			req("total", "Total", TypeMoney),
			choice("status", "Status", true, "pending", "paid", "shipped", "delivered", "refunded"),
			opt("ordered_on", "Ordered on", TypeDate)}}
}

func categoryDef() EntityDef {
	return EntityDef{Name: "category", Label: "Category", Plural: "categories", Summary: "a category",
		Fields: []Field{req("name", "Name", TypeText), opt("description", "Description", TypeLongText)}}
}

func invoiceDef() EntityDef {
	return EntityDef{Name: "invoice", Label: "Invoice", Plural: "invoices", Summary: "an invoice to a client",
		Note: "An invoice has one amount entered by hand; the app neither emails invoices nor takes payments",
		Fields: []Field{req("number", "Invoice number", TypeText), req("client", "Client", TypeText),
			req("issued_on", "Issued on", TypeDate), req("due_on", "Due on", TypeDate),
			req("amount", "Amount", TypeMoney),
			choice("status", "Status", true, "draft", "sent", "paid", "overdue"),
			opt("notes", "Notes", TypeLongText)}}
}

func postDef() EntityDef {
	return EntityDef{Name: "post", Label: "Post", Plural: "posts", Summary: "a post",
		Fields: []Field{req("title", "Title", TypeText), req("author", "Author", TypeText),
			req("body", "Text", TypeLongText), opt("published_on", "Published on", TypeDate)}}
}
