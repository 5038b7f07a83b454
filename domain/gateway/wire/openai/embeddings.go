package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// Limits of an embeddings request (the format's own: at most 2,048 inputs
// in one request).
const (
	MaxEmbeddingInputs     = 2048
	MaxEmbeddingDimensions = 65536
)

// Encoding formats of an embeddings response: float (JSON numbers, the
// default) or base64 (each vector's little-endian float32 bytes, what the
// official SDKs ask for and decode themselves).
const (
	EncodingFloat  = "float"
	EncodingBase64 = "base64"
)

// EmbeddingsRequest is a POST /v1/embeddings body.
type EmbeddingsRequest struct {
	Model      string
	Input      []string // one per vector wanted, in order
	Dimensions int      // 0: the model's own
	Encoding   string   // EncodingFloat or EncodingBase64
	User       string
}

// EmbeddingsResponse is the vectors of a request, in input order, with
// the input's token count.
type EmbeddingsResponse struct {
	Model        string
	Vectors      [][]float32
	PromptTokens int
}

// DecodeEmbeddingsRequest reads a client's embeddings request strictly:
// model required; input a non-empty string or an array of 1-2,048
// non-empty strings (token arrays are refused: the gateway serves models
// of several tokenizers, so only text means the same to every one);
// encoding_format float or base64; dimensions 1-65,536; user a string.
// Errors are kernel.Invalid naming the field and the rule.
func DecodeEmbeddingsRequest(body []byte) (EmbeddingsRequest, error) {
	r := EmbeddingsRequest{Encoding: EncodingFloat}
	o, err := wirejson.Parse(body)
	if err != nil {
		return r, err
	}
	if err := o.Only("model", "input", "encoding_format", "dimensions", "user"); err != nil {
		return r, err
	}
	for _, k := range []string{"model", "input"} {
		if err := o.Required(k); err != nil {
			return r, err
		}
	}
	if r.Model, err = o.String("model"); err != nil {
		return r, err
	}
	if strings.TrimSpace(r.Model) == "" {
		return r, wirejson.Invalid("model", "required", "must name a model of the catalog")
	}
	if r.Input, err = embeddingInput(o.Raw("input")); err != nil {
		return r, err
	}
	if o.Has("encoding_format") {
		if r.Encoding, err = o.String("encoding_format"); err != nil {
			return r, err
		}
		if r.Encoding != EncodingFloat && r.Encoding != EncodingBase64 {
			return r, wirejson.Invalid("encoding_format", "oneof:float,base64",
				fmt.Sprintf("must be float or base64, not %q", r.Encoding))
		}
	}
	if d, err := o.Int("dimensions"); err != nil {
		return r, err
	} else if d != nil {
		if *d < 1 || *d > MaxEmbeddingDimensions {
			return r, wirejson.Invalid("dimensions", fmt.Sprintf("range:1-%d", MaxEmbeddingDimensions),
				fmt.Sprintf("must be between 1 and %d", MaxEmbeddingDimensions))
		}
		r.Dimensions = *d
	}
	if o.Has("user") {
		if r.User, err = o.String("user"); err != nil {
			return r, err
		}
	}
	return r, nil
}

func embeddingInput(raw json.RawMessage) ([]string, error) {
	if wirejson.IsString(raw) {
		s, err := wirejson.String(raw, "input")
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, wirejson.Invalid("input", "nonempty", "must not be empty")
		}
		return []string{s}, nil
	}
	items, err := wirejson.Array(raw, "input")
	if err != nil {
		return nil, wirejson.Invalid("input", "type", "must be a string or an array of strings")
	}
	if len(items) == 0 {
		return nil, wirejson.Invalid("input", "nonempty", "must hold at least one string")
	}
	if len(items) > MaxEmbeddingInputs {
		return nil, wirejson.Invalid("input", fmt.Sprintf("max_items:%d", MaxEmbeddingInputs),
			fmt.Sprintf("holds %d inputs; at most %d in one request", len(items), MaxEmbeddingInputs))
	}
	out := make([]string, len(items))
	for i, it := range items {
		path := wirejson.Index("input", i)
		if !wirejson.IsString(it) {
			trimmed := bytes.TrimSpace(it)
			if len(trimmed) > 0 && (trimmed[0] == '[' || (trimmed[0] >= '0' && trimmed[0] <= '9')) {
				return nil, wirejson.Invalid(path, "text", "token arrays are not accepted: send the text (the gateway's models do not share one tokenizer)")
			}
			return nil, wirejson.Invalid(path, "type", "must be a string")
		}
		s, err := wirejson.String(it, path)
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, wirejson.Invalid(path, "nonempty", "must not be empty")
		}
		out[i] = s
	}
	return out, nil
}

// EncodeEmbeddingsRequest writes r for an upstream of this format. The
// vectors are asked for as floats (every OpenAI-compatible server's
// default), whatever the client asked.
func EncodeEmbeddingsRequest(r EmbeddingsRequest) ([]byte, error) {
	body := struct {
		Model      string   `json:"model"`
		Input      []string `json:"input"`
		Dimensions int      `json:"dimensions,omitempty"`
		User       string   `json:"user,omitempty"`
	}{r.Model, r.Input, r.Dimensions, r.User}
	return wirejson.Marshal(body)
}

type embeddingItem struct {
	Object    string `json:"object"`
	Index     int    `json:"index"`
	Embedding any    `json:"embedding"`
}

type embeddingsUsage struct {
	PromptTokens int `json:"prompt_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// EncodeEmbeddingsResponse writes r as this format's answer: {object
// "list", data [{object "embedding", index, embedding}], model, usage
// {prompt_tokens, total_tokens}}, each embedding an array of numbers or,
// for encoding base64, the base64 of its little-endian float32 bytes.
func EncodeEmbeddingsResponse(r EmbeddingsResponse, encoding string) ([]byte, error) {
	data := make([]embeddingItem, len(r.Vectors))
	for i, v := range r.Vectors {
		data[i] = embeddingItem{Object: "embedding", Index: i, Embedding: v}
		if encoding == EncodingBase64 {
			data[i].Embedding = Base64Vector(v)
		} else if v == nil {
			data[i].Embedding = []float32{}
		}
	}
	return wirejson.Marshal(struct {
		Object string          `json:"object"`
		Data   []embeddingItem `json:"data"`
		Model  string          `json:"model"`
		Usage  embeddingsUsage `json:"usage"`
	}{"list", data, r.Model, embeddingsUsage{r.PromptTokens, r.PromptTokens}})
}

// Base64Vector is the base64 of v's little-endian float32 bytes.
func Base64Vector(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// DecodeEmbeddingsResponse reads an upstream's embeddings answer (either
// encoding), checking that it holds one vector per input (want) at each
// index once, every vector of one length.
func DecodeEmbeddingsResponse(body []byte, want int) (EmbeddingsResponse, error) {
	var b struct {
		Data []struct {
			Index     *int            `json:"index"`
			Embedding json.RawMessage `json:"embedding"`
		} `json:"data"`
		Model string `json:"model"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return EmbeddingsResponse{}, fmt.Errorf("an embeddings answer that is not JSON of the format: %w", err)
	}
	if len(b.Data) != want {
		return EmbeddingsResponse{}, fmt.Errorf("%d vectors for %d inputs", len(b.Data), want)
	}
	out := EmbeddingsResponse{Model: b.Model, PromptTokens: b.Usage.PromptTokens, Vectors: make([][]float32, want)}
	dims := 0
	for i, d := range b.Data {
		at := i
		if d.Index != nil {
			at = *d.Index
		}
		if at < 0 || at >= want || out.Vectors[at] != nil {
			return EmbeddingsResponse{}, fmt.Errorf("data[%d].index %d is out of range or repeated", i, at)
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return EmbeddingsResponse{}, fmt.Errorf("data[%d].embedding: %w", i, err)
		}
		if len(v) == 0 || (dims != 0 && len(v) != dims) {
			return EmbeddingsResponse{}, fmt.Errorf("data[%d].embedding has %d dimensions (the first had %d)", i, len(v), dims)
		}
		dims = len(v)
		out.Vectors[at] = v
	}
	return out, nil
}

func decodeVector(raw json.RawMessage) ([]float32, error) {
	if wirejson.IsString(raw) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b)%4 != 0 {
			return nil, fmt.Errorf("not the base64 of float32 values")
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	}
	var v []float32
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("not an array of numbers")
	}
	return v, nil
}
