package extract

// countryData lists every country (with common aliases) and a few
// regions. Places are returned as Kind Concept.
const countryData = `
Afghanistan; Albania; Algeria; Andorra; Angola; Antigua and Barbuda; Argentina; Armenia; Australia
Austria; Azerbaijan; Bahamas|The Bahamas; Bahrain; Bangladesh; Barbados; Belarus; Belgium; Belize
Benin; Bhutan; Bolivia; Bosnia and Herzegovina|Bosnia; Botswana; Brazil|Brasil; Brunei; Bulgaria
Burkina Faso; Burundi; Cabo Verde|Cape Verde; Cambodia; Cameroon; Canada; Central African Republic
Chad~; Chile; China~|PRC=; Colombia; Comoros; Congo|Republic of the Congo; Democratic Republic of the Congo|DRC=
Costa Rica; Côte d'Ivoire|Ivory Coast; Croatia; Cuba; Cyprus; Czechia|Czech Republic; Denmark
Djibouti; Dominica; Dominican Republic; Ecuador; Egypt; El Salvador; Equatorial Guinea; Eritrea
Estonia; Eswatini|Swaziland; Ethiopia; Fiji; Finland; France; Gabon; Gambia|The Gambia; Georgia~
Germany; Ghana; Greece; Grenada; Guatemala; Guinea; Guinea-Bissau; Guyana; Haiti; Honduras
Hungary; Iceland; India; Indonesia; Iran; Iraq; Ireland; Israel; Italy; Jamaica; Japan; Jordan~
Kazakhstan; Kenya; Kiribati; Kosovo; Kuwait; Kyrgyzstan; Laos; Latvia; Lebanon; Lesotho; Liberia
Libya; Liechtenstein; Lithuania; Luxembourg; Madagascar; Malawi; Malaysia; Maldives; Mali; Malta
Marshall Islands; Mauritania; Mauritius; Mexico; Micronesia; Moldova; Monaco; Mongolia; Montenegro
Morocco; Mozambique; Myanmar|Burma; Namibia; Nauru; Nepal; Netherlands|The Netherlands|Holland
New Zealand; Nicaragua; Niger; Nigeria; North Korea; North Macedonia|Macedonia; Norway; Oman
Pakistan; Palau; Palestine; Panama; Papua New Guinea; Paraguay; Peru; Philippines|The Philippines
Poland; Portugal; Qatar; Romania; Russia; Rwanda; Saint Kitts and Nevis; Saint Lucia; Samoa
San Marino; Saudi Arabia; Senegal; Serbia; Seychelles; Sierra Leone; Singapore; Slovakia; Slovenia
Solomon Islands; Somalia; South Africa; South Korea|Korea; South Sudan; Spain; Sri Lanka; Sudan
Suriname; Sweden; Switzerland; Syria; Taiwan; Tajikistan; Tanzania; Thailand; Timor-Leste; Togo
Tonga; Trinidad and Tobago; Tunisia; Turkey~|Türkiye; Turkmenistan; Tuvalu; Uganda; Ukraine
United Arab Emirates|UAE=; United Kingdom|UK=|U.K.|Great Britain|Britain; United States|USA=|US=|U.S.|U.S.A.
Uruguay; Uzbekistan; Vanuatu; Vatican City; Venezuela; Vietnam|Viet Nam; Yemen; Zambia; Zimbabwe
England; Scotland; Wales; Northern Ireland; Europe; Asia; Africa; South America; North America
Latin America; Middle East; Scandinavia; Silicon Valley; Bay Area|SF Bay Area; Puerto Rico; Greenland
California; Texas; Florida; Oregon; Colorado; Massachusetts; Illinois; North Carolina; South Carolina
Arizona; Nevada; Utah; Michigan; Ohio; Pennsylvania; New Jersey; Hawaii; Alaska; Minnesota
Wisconsin; Tennessee; Maryland; Connecticut; Vermont; Maine; Idaho; Montana; Iowa; Kentucky
Bavaria; Ontario; Quebec; British Columbia; Alberta; Catalonia; Andalusia; Tuscany; Sicily; Bali
`

// cityData lists major cities. Names that are also given names
// (Austin, Sydney) are resolved by context.
const cityData = `
New York|NYC=|New York City|NY=; San Francisco|SF=; Los Angeles|LA=; Chicago; Boston; Seattle; Austin
Denver; Dallas; Houston; Miami; Atlanta; Portland; Phoenix; Philadelphia|Philly; Washington DC|Washington D.C.|DC=|D.C.
San Diego; San Jose; Oakland; Palo Alto; Mountain View; Menlo Park; Sunnyvale; Cupertino; Brooklyn
Toronto; Vancouver; Montreal|Montréal; Ottawa; Calgary; Mexico City; Guadalajara; Monterrey
São Paulo|Sao Paulo; Rio de Janeiro; Buenos Aires; Santiago; Lima; Bogotá|Bogota; Medellín|Medellin
Caracas; Quito; Montevideo; London; Manchester; Edinburgh; Glasgow; Dublin; Paris; Berlin; Munich|München
Hamburg; Frankfurt; Cologne|Köln; Stuttgart; Düsseldorf|Dusseldorf; Vienna|Wien; Zurich|Zürich
Geneva; Basel; Amsterdam; Rotterdam; Utrecht; Brussels; Antwerp; Copenhagen; Stockholm; Oslo
Helsinki; Reykjavik; Madrid; Barcelona; Valencia; Seville|Sevilla; Lisbon|Lisboa; Porto; Rome|Roma
Milan|Milano; Naples; Turin; Florence; Venice; Bologna; Athens; Istanbul; Ankara; Warsaw; Krakow|Kraków
Prague; Budapest; Bucharest; Sofia; Belgrade; Zagreb; Ljubljana; Kyiv|Kiev; Lviv; Moscow
Saint Petersburg|St. Petersburg; Tallinn; Riga; Vilnius; Tel Aviv; Jerusalem; Haifa; Dubai
Abu Dhabi; Doha; Riyadh; Jeddah; Cairo; Alexandria; Casablanca; Marrakech; Lagos; Abuja; Accra
Nairobi; Addis Ababa; Kampala; Kigali; Dar es Salaam; Johannesburg; Cape Town; Durban; Pretoria
Tunis; Algiers; Dakar; Mumbai|Bombay; Delhi|New Delhi; Bangalore|Bengaluru; Hyderabad; Chennai
Kolkata; Pune; Ahmedabad; Jaipur; Karachi; Lahore; Islamabad; Dhaka; Colombo; Kathmandu; Beijing
Shanghai; Shenzhen; Guangzhou; Hangzhou; Chengdu; Wuhan; Xi'an; Hong Kong; Macau; Taipei; Seoul
Busan; Tokyo; Osaka; Kyoto; Yokohama; Nagoya; Fukuoka; Sapporo; Kuala Lumpur; Jakarta; Bangkok
Manila; Ho Chi Minh City|Saigon; Hanoi; Phnom Penh; Yangon; Sydney; Melbourne; Brisbane; Perth
Adelaide; Canberra; Auckland; Wellington; Christchurch; Honolulu; Anchorage; Las Vegas
Salt Lake City; Minneapolis; Detroit; Pittsburgh; Nashville; Raleigh; Charlotte; Orlando; Tampa
Baltimore; St. Louis; Kansas City; Cincinnati; Cleveland; Columbus; Indianapolis; Milwaukee
Sacramento; New Orleans; San Antonio; Boulder; Cambridge; Oxford; Berkeley; Bristol; Birmingham
Leeds; Liverpool; Belfast; Cork; Marseille; Lyon; Toulouse; Nice=; Bordeaux; Lille; Strasbourg
Gothenburg; Malmö|Malmo; Aarhus; Bergen; Tampere; Gdansk|Gdańsk; Wroclaw|Wrocław; Brno; Tbilisi
Yerevan; Baku; Almaty; Astana; Tashkent; Tehran; Baghdad; Beirut; Amman; Kuwait City; Muscat
Havana; San Juan; Panama City; Guatemala City; San Salvador; Kingston; Ulaanbaatar; Thessaloniki
`

// languageData lists human languages, the objects of speaks.
const languageData = `
English; Spanish; French; German; Italian; Portuguese; Dutch; Swedish; Norwegian; Danish
Finnish; Polish; Czech; Slovak; Russian; Ukrainian; Greek; Turkish; Arabic; Hebrew; Persian|Farsi
Hindi; Urdu; Bengali; Punjabi; Tamil; Telugu; Marathi; Gujarati; Kannada; Malayalam; Mandarin|Mandarin Chinese
Cantonese; Chinese; Japanese; Korean; Vietnamese; Thai; Indonesian; Malay; Tagalog; Filipino
Swahili; Yoruba; Igbo; Hausa; Amharic; Zulu; Xhosa; Afrikaans; Romanian; Hungarian; Serbian
Croatian; Bulgarian; Catalan; Basque; Galician; Irish; Welsh; Icelandic; Latin; Esperanto
Lithuanian; Latvian; Estonian; Slovenian; Albanian; Armenian; Georgian; Kazakh; Uzbek; Mongolian
Burmese; Khmer; Lao; Nepali; Sinhala; Somali; Wolof; Twi; Sign Language; ASL=|American Sign Language
`
