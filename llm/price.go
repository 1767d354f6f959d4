package llm

import "strings"

// Price is what a model costs in USD per million tokens.
type Price struct {
	PromptPerM     float64 `json:"prompt_per_m" yaml:"prompt_per_m" mapstructure:"prompt_per_m"`
	CompletionPerM float64 `json:"completion_per_m" yaml:"completion_per_m" mapstructure:"completion_per_m"`
}

// Cost is the price of u in USD.
func (p Price) Cost(u Usage) float64 {
	return (float64(u.PromptTokens)*p.PromptPerM + float64(u.CompletionTokens)*p.CompletionPerM) / 1e6
}

// PriceTable maps model names to prices. A name matches exactly, or else the longest
// table entry that is a prefix of it ("gpt-4o" prices "gpt-4o-2024-08-06").
type PriceTable map[string]Price

// Lookup finds the price of model.
func (t PriceTable) Lookup(model string) (Price, bool) {
	if p, ok := t[model]; ok {
		return p, true
	}
	best, found := "", false
	for name := range t {
		if name != "" && strings.HasPrefix(model, name) && len(name) > len(best) {
			best, found = name, true
		}
	}
	if !found {
		return Price{}, false
	}
	return t[best], true
}

// Cost prices u for model; 0 when the model is not in the table.
func (t PriceTable) Cost(model string, u Usage) float64 {
	p, ok := t.Lookup(model)
	if !ok {
		return 0
	}
	return p.Cost(u)
}
