package openai_test

import (
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/gateway/wire/openai"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestDecodeEmbeddingsRequest(t *testing.T) {
	r, err := openai.DecodeEmbeddingsRequest([]byte(`{"model":"m","input":"hello"}`))
	if err != nil || r.Model != "m" || len(r.Input) != 1 || r.Input[0] != "hello" || r.Encoding != openai.EncodingFloat || r.Dimensions != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = openai.DecodeEmbeddingsRequest([]byte(`{"model":"m","input":["a","b"],"encoding_format":"base64","dimensions":8,"user":"u1"}`))
	if err != nil || len(r.Input) != 2 || r.Encoding != openai.EncodingBase64 || r.Dimensions != 8 || r.User != "u1" {
		t.Fatalf("%+v %v", r, err)
	}
	// null stands for absent, as the SDKs send it.
	if _, err := openai.DecodeEmbeddingsRequest([]byte(`{"model":"m","input":"x","dimensions":null,"encoding_format":null}`)); err != nil {
		t.Fatal(err)
	}
	many := `{"model":"m","input":[` + strings.Repeat(`"x",`, openai.MaxEmbeddingInputs) + `"x"]}`
	for body, field := range map[string]string{
		`{"input":"x"}`:                                   "model",
		`{"model":"m"}`:                                   "input",
		`{"model":" ","input":"x"}`:                       "model",
		`{"model":"m","input":""}`:                        "input",
		`{"model":"m","input":[]}`:                        "input",
		`{"model":"m","input":["a",""]}`:                  "input[1]",
		`{"model":"m","input":[1,2,3]}`:                   "input[0]",
		`{"model":"m","input":[[1,2],[3]]}`:               "input[0]",
		`{"model":"m","input":["a",{}]}`:                  "input[1]",
		`{"model":"m","input":5}`:                         "input",
		`{"model":"m","input":"x","encoding_format":"x"}`: "encoding_format",
		`{"model":"m","input":"x","dimensions":0}`:        "dimensions",
		`{"model":"m","input":"x","dimensions":1.5}`:      "dimensions",
		`{"model":"m","input":"x","extra":1}`:             "extra",
		many:                                              "input",
	} {
		_, err := openai.DecodeEmbeddingsRequest([]byte(body))
		var ke *kernel.Error
		if !asKernel(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != field {
			t.Errorf("%.60s: want invalid %s, got %v", body, field, err)
		}
	}
}

func asKernel(err error, out **kernel.Error) bool {
	ke, ok := err.(*kernel.Error)
	*out = ke
	return ok
}

func TestEmbeddingsResponseRoundTrip(t *testing.T) {
	v := [][]float32{{0.25, -0.5, 1e-7}, {1, 0, -1}}
	for _, enc := range []string{openai.EncodingFloat, openai.EncodingBase64} {
		b, err := openai.EncodeEmbeddingsResponse(openai.EmbeddingsResponse{Model: "m", Vectors: v, PromptTokens: 5}, enc)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.HasPrefix(s, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":`) ||
			!strings.HasSuffix(s, `"model":"m","usage":{"prompt_tokens":5,"total_tokens":5}}`) {
			t.Fatalf("%s: %s", enc, s)
		}
		if enc == openai.EncodingFloat && !strings.Contains(s, `"embedding":[0.25,-0.5,1e-7]`) {
			t.Fatalf("floats: %s", s)
		}
		got, err := openai.DecodeEmbeddingsResponse(b, 2)
		if err != nil || got.PromptTokens != 5 || len(got.Vectors) != 2 {
			t.Fatalf("%+v %v", got, err)
		}
		for i := range v {
			for j := range v[i] {
				if got.Vectors[i][j] != v[i][j] {
					t.Fatalf("%s: vector %d differs: %v", enc, i, got.Vectors[i])
				}
			}
		}
	}
	// The base64 form is the little-endian float32 bytes: 1.0 is 0x3f800000.
	if got := openai.Base64Vector([]float32{1}); got != "AACAPw==" {
		t.Fatal(got)
	}
	// An upstream's answer that does not match the request is refused.
	for _, body := range []string{
		`{"data":[{"index":0,"embedding":[1,2]}]}`,                                       // one vector for two inputs
		`{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`,         // index repeated
		`{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]}`,           // lengths differ
		`{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":"not base64!"}]}`, // not base64
		`not json`,
	} {
		if _, err := openai.DecodeEmbeddingsResponse([]byte(body), 2); err == nil {
			t.Errorf("accepted %s", body)
		}
	}
	// Out of order indexes are put in order.
	got, err := openai.DecodeEmbeddingsResponse([]byte(`{"data":[{"index":1,"embedding":[2]},{"index":0,"embedding":[1]}]}`), 2)
	if err != nil || got.Vectors[0][0] != 1 || got.Vectors[1][0] != 2 {
		t.Fatalf("%+v %v", got, err)
	}
}
