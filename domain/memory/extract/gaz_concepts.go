package extract

// conceptData lists domain concepts worth remembering on their own:
// "canonical|alias". Matching ignores case; names are canonical.
const conceptData = `
machine learning|ML=; deep learning; reinforcement learning; supervised learning; unsupervised learning
artificial intelligence; generative AI|GenAI|gen AI; large language models|LLMs=|large language model
natural language processing|NLP=; computer vision; data science; data engineering; data analysis
data analytics; data visualization; data privacy; data governance; big data; MLOps; AI safety
AI alignment; prompt engineering; distributed systems; systems programming; cloud computing
edge computing; quantum computing; high performance computing|HPC=; cybersecurity|cyber security
information security|infosec; blockchain; cryptocurrency; decentralized finance|DeFi; Web3
smart contracts; product management; project management; program management; product design
UX design|user experience design; UI design; user research; design systems; software engineering
software architecture; microservices; DevOps; site reliability engineering; observability
developer experience; developer relations|DevRel; platform engineering; open source
remote work; hybrid work; pricing strategy; go-to-market strategy|go-to-market|GTM=
fundraising; venture capital; angel investing; product-market fit; growth hacking
growth marketing; content marketing; digital marketing; performance marketing; SEO=
search engine optimization; customer success; customer support; A/B testing; experimentation
climate change; sustainability; renewable energy; carbon capture; personal finance; investing
mental health; leadership; public speaking; team building; negotiation; time management
entrepreneurship; real estate; e-commerce|ecommerce; supply chain; game development
mobile development; web development; frontend development; backend development
functional programming; object-oriented programming; test-driven development|TDD=
continuous integration; continuous delivery; CI/CD; infrastructure as code; event sourcing
domain-driven design|DDD=; computer science; mathematics; statistics; economics; neuroscience
bioinformatics; robotics; embedded systems; computer graphics; compilers; operating systems
databases; networking; cryptography; algorithms; API design; technical debt; code review
pair programming; agile; scrum; kanban; OKRs=; unit economics; churn; retention; monetization
business development; sales strategy; enterprise sales; marketing strategy; brand strategy
product strategy; startup strategy;  talent acquisition; people management
engineering management; career growth; mentoring; work-life balance; productivity
`
