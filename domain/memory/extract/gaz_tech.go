package extract

// techData lists technologies: "Canonical|alias|...", one entry per ';'
// or line. Marks after a form: ~ also a common word or a given name
// (needs capitals away from a sentence start, or a technical cue),
// ! needs a cue even when capitalised, = exact case only, ^ a product
// named after its company: an org (kinds.go).
const techData = `
Go~|golang|Go lang; Python|python3|Python 3; Rust~|rustlang; JavaScript|JS=|ECMAScript
TypeScript; Java; Kotlin; Swift~; Objective-C|ObjC; C!=; C++|cpp; C#|csharp|C sharp; F#
Ruby~; PHP; Perl; Scala; Haskell; Elixir; Erlang; Clojure; OCaml; Julia~; R!=; MATLAB
Lua; Dart~; Zig; Nim; Crystal~; Elm~; Groovy; Solidity; SQL; Bash; PowerShell; Fortran
COBOL; Pascal~; WebAssembly|Wasm; HTML|HTML5; CSS|CSS3; Sass|SCSS; Visual Basic|VB.NET
Prolog; Lisp; Common Lisp; Racket; Smalltalk; Ada!; Mojo; Gleam; Deno; Bun!; Node.js|Node~|NodeJS
React|ReactJS|React.js; React Native; Angular|AngularJS; Vue|Vue.js|VueJS; Svelte; SvelteKit
Next.js|NextJS; Nuxt|Nuxt.js; Remix!; Gatsby!; Astro!; Ember.js|Ember!; Backbone.js; jQuery
Redux; MobX; Tailwind CSS|Tailwind|TailwindCSS; Bootstrap~; Material UI|MUI=; Django; Flask~
FastAPI; Express.js|Express!; NestJS; Ruby on Rails|Rails~|RoR=; Laravel; Symfony; Spring~
Spring Boot; Hibernate; .NET|dotnet|.NET Core; ASP.NET; Blazor; Phoenix~; Actix; Axum; Tokio
Qt; GTK; Electron~; Tauri; Flutter~; SwiftUI; UIKit; Jetpack Compose; Unity~; Unreal Engine|Unreal
Godot; Three.js; D3.js; Socket.IO; GraphQL; Apollo!; gRPC; REST=|RESTful; WebRTC; tRPC; htmx
TensorFlow; PyTorch; Keras; scikit-learn|sklearn; pandas~; NumPy; SciPy; Jupyter|Jupyter Notebook
Hugging Face|HuggingFace; LangChain; LlamaIndex; spaCy; NLTK; OpenCV; XGBoost; LightGBM; JAX!
MLflow; Kubeflow; Ray!; Dask; Polars; Spark~|Apache Spark; PySpark; Kafka|Apache Kafka
Airflow|Apache Airflow; Hadoop; Hive!; Flink|Apache Flink; HBase; Presto; Trino; Druid!
Superset|Apache Superset; Kinesis; Pulsar|Apache Pulsar; RabbitMQ; ActiveMQ; ZeroMQ; NATS=
Celery~; Sidekiq; ChatGPT; GPT-4|GPT4; GPT-4o; GPT-3.5; Claude!; Llama!; Gemini!; GitHub Copilot|Copilot
Stable Diffusion; Midjourney; PostgreSQL|Postgres|psql|PostgresQL; MySQL; MariaDB; SQLite
SQL Server|MSSQL|Microsoft SQL Server; Oracle Database; Oracle!^; MongoDB|Mongo~; Redis; Memcached
Elasticsearch|Elastic Search; OpenSearch; Cassandra!|Apache Cassandra; ScyllaDB; DynamoDB
CockroachDB; TiDB; Neo4j; ClickHouse; DuckDB; Snowflake~^; BigQuery; Redshift; Firestore
Firebase; Supabase^; PlanetScale^; InfluxDB; TimescaleDB; Prometheus; Pinecone~; Weaviate; Milvus
Qdrant; pgvector; Couchbase; CouchDB; RocksDB; LevelDB; etcd; Consul~; HashiCorp Vault|Vault~
Nomad~; Terraform; OpenTofu; Pulumi; Vagrant; Ansible; SaltStack; Packer!
AWS|Amazon Web Services; GCP|Google Cloud|Google Cloud Platform; Azure|Microsoft Azure
AWS Lambda|Lambda~; Amazon S3|S3=; EC2; ECS=; EKS; GKE; AKS=; CloudFormation; CloudFront
Cloud Run; App Engine; Heroku^; Vercel^; Netlify^; Fly.io^; DigitalOcean^; Linode^; Cloudflare^
Cloudflare Workers; OpenShift; Kubernetes|k8s|kube!; Docker; Docker Compose; Podman; containerd
Helm~; Istio; Linkerd; Envoy~; Nginx|NGINX; HAProxy; Traefik; Caddy~; Minikube; k3s; Rancher
Argo CD|ArgoCD; Jenkins~; GitHub Actions; GitLab CI; CircleCI^; Travis CI; Buildkite^; Bazel
Gradle; Maven~; npm; Yarn~; pnpm; Webpack; Vite; esbuild; ESLint; Jest~; Mocha~; Cypress~
Playwright; Selenium; Storybook; Postman^; Swagger|OpenAPI; Datadog^; Grafana; New Relic^
Sentry~; PagerDuty^; Splunk^; ELK Stack|ELK; Kibana; Logstash; Jaeger; OpenTelemetry
Git; GitHub^; GitLab^; Bitbucket; Jira; Confluence; Trello; Asana^; Notion~^; Slack~^
Microsoft Teams|Teams~|MS Teams; Zoom~^; Discord^; Figma^; Miro^; Airtable^; Microsoft Excel|Excel~
Google Sheets; Google Docs; Google Drive; Tableau; Power BI; Looker; Metabase; dbt; Fivetran^
Mixpanel^; Zapier^; Vim|vi=; Neovim; Emacs; VS Code|Visual Studio Code|VSCode; Visual Studio
IntelliJ|IntelliJ IDEA; PyCharm; Xcode; Android Studio; Sublime Text; tmux; zsh; Homebrew
Obsidian~; Linux; Ubuntu; Debian; Fedora; Arch Linux; CentOS; RHEL|Red Hat Enterprise Linux
macOS|OS X|Mac OS; Windows~; iOS; Android; FreeBSD; WSL; ChromeOS; HTTP|HTTPS; TCP; UDP
TLS; SSL; DNS; SSH; WebSocket|WebSockets; MQTT; AMQP; OAuth|OAuth2|OAuth 2.0; OpenID Connect|OIDC
SAML; JWT; JSON; YAML; XML; Protobuf|Protocol Buffers; Avro!; Parquet; WebGPU; OpenGL; Vulkan~
CUDA; LLVM; GCC; Clang; JVM; V8!; Ethereum; Bitcoin; Solana; Xamarin; Salesforce CRM
Microsoft Office|Office 365; Google Workspace; Photoshop; Illustrator~; Blender~
`
