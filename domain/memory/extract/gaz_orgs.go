package extract

// orgData lists well-known organisations: "Canonical|alias", one entry
// per ';' or line. Orgs always need a capital letter except in an
// all-lower-case text; ~ marks names that are also common words (those
// need a capital even then), = exact case only.
const orgData = `
Google; Alphabet; Microsoft; Apple~; Amazon~; Meta~; Facebook; Instagram; WhatsApp; Netflix
OpenAI; Anthropic; DeepMind; Google DeepMind; Nvidia|NVIDIA; Intel; AMD=; IBM; Oracle~; SAP=
Salesforce; Adobe; Cisco; Dell; HP=|Hewlett-Packard; HPE=; Lenovo; Samsung; Sony; LG=; Huawei
Xiaomi; Tencent; Alibaba; Baidu; ByteDance; TikTok; Uber; Lyft; Airbnb; Stripe~; PayPal
Mastercard; Visa~; Shopify; Spotify; Twitter; LinkedIn; Snap~; Pinterest; Reddit; Dropbox
Atlassian; Palantir; Databricks; Tesla; SpaceX; Twitch; Yahoo; eBay; Etsy; Instacart; DoorDash
Coinbase; Robinhood; Canva; Okta; Twilio; HubSpot; Zendesk; ServiceNow; Workday; Intuit; VMware
Red Hat; Mistral AI; Cohere; Scale AI; Stability AI; xAI; Perplexity; Anduril; Klarna; Booking.com
Expedia; Siemens; Bosch; Philips; Ericsson; Nokia; ASML; TSMC; Qualcomm; Broadcom; Infosys
Wipro; Accenture; Deloitte; PwC; KPMG; McKinsey|McKinsey & Company; BCG=|Boston Consulting Group
Bain|Bain & Company; Gartner; JPMorgan|JPMorgan Chase|J.P. Morgan|JP Morgan; Goldman Sachs
Morgan Stanley; Bank of America; Citi|Citigroup|Citibank; Wells Fargo; HSBC; Barclays
Deutsche Bank; UBS=; Credit Suisse; BNP Paribas; Santander; Société Générale; BlackRock
Vanguard~; Fidelity~; Charles Schwab; American Express|Amex; Capital One; Bank of England
European Central Bank|ECB=; World Bank; IMF=; Sequoia|Sequoia Capital; Andreessen Horowitz|a16z
Accel; Kleiner Perkins; Greylock; Index Ventures; Lightspeed Venture Partners; Tiger Global
SoftBank; Y Combinator|YC=; Techstars; General Catalyst; Founders Fund; Insight Partners
MIT=|Massachusetts Institute of Technology; Stanford|Stanford University; Harvard|Harvard University
Yale; Princeton; Columbia University; UC Berkeley; UCLA; Caltech; Carnegie Mellon|CMU=
Cornell; Oxford University|University of Oxford; Cambridge University|University of Cambridge
Imperial College London|Imperial College; UCL=; LSE=|London School of Economics; ETH Zurich|ETH=
EPFL; TU Munich|TUM=|Technical University of Munich; Sorbonne; Tsinghua|Tsinghua University
Peking University; NUS=|National University of Singapore; University of Toronto; McGill
IIT Bombay; IIT Delhi; IIT Madras; IISc=; KAIST; Seoul National University; University of Tokyo
Technion; Georgia Tech; NYU=|New York University; Johns Hopkins; Northwestern University
University of Michigan; Berkeley~; Oxford~; Cambridge~; NASA; ESA=; FBI; CIA=; NIH=; CDC=
WHO=|World Health Organization; United Nations|UN=; UNICEF; NATO; IRS=; SEC=; FDA=; FTC=; DARPA
CERN; NHS=; BBC; CNN; Reuters; Bloomberg; New York Times|The New York Times; Mozilla
Apache Software Foundation; Linux Foundation; Python Software Foundation; Red Cross
Gates Foundation; Wikimedia Foundation; Walmart; Target~; Costco; Starbucks; McDonald's
Coca-Cola; PepsiCo; Nike; Adidas; IKEA; Unilever; Nestlé|Nestle; Procter & Gamble|P&G
Johnson & Johnson; Pfizer; Moderna; Novartis; Roche; AstraZeneca; Merck; Bayer; BMW
Volkswagen; Mercedes-Benz; Toyota; Honda; General Motors|GM=; Boeing; Airbus; Lockheed Martin
ExxonMobil; Chevron; General Electric|GE=; Disney; Warner Bros; HBO; Paramount; Nintendo
Electronic Arts; Activision Blizzard; Valve~; Epic Games; Roblox; Grab~; Gojek; Sea Limited
Rakuten; SoftBank Vision Fund; Temasek; Mubadala; Aramco|Saudi Aramco; Emirates~; Lufthansa
Ryanair; Maersk; Spotify Technology; Ocado; Monzo; Wise~; N26; Adyen; Mollie; Deliveroo
`
