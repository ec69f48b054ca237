package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/agent/model"
)

func TestNew(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	_, err := model.New(model.FromEnv(env()))
	if !errors.Is(err, model.ErrNoModel) {
		t.Fatalf("New with nothing set = %v, want ErrNoModel", err)
	}
	for _, v := range []string{"ANTHROPIC_API_KEY", "EDGAR13F_AGENT_MODEL", "EDGAR13F_CHAT_URL", "EDGAR13F_CHAT_API_KEY", "http://localhost:11434/v1"} {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("the error %q does not mention %s", err, v)
		}
	}
	if _, err := model.New(model.FromEnv(env("EDGAR13F_CHAT_URL", "http://localhost:11434/v1"))); !errors.Is(err, model.ErrNoModel) || !strings.Contains(err.Error(), "EDGAR13F_AGENT_MODEL") {
		t.Errorf("New with a URL and no model = %v, want ErrNoModel naming EDGAR13F_AGENT_MODEL", err)
	}
	if _, err := model.New(model.FromEnv(env("EDGAR13F_CHAT_URL", "localhost:11434", "EDGAR13F_AGENT_MODEL", "qwen3"))); err == nil {
		t.Errorf("New accepted a URL without a scheme")
	}
	m, err := model.New(model.FromEnv(env("ANTHROPIC_API_KEY", " sk-test ")))
	if _, ok := m.(*model.Anthropic); err != nil || !ok {
		t.Errorf("New with an Anthropic key = %T, %v", m, err)
	}
	// Both set: the explicit chat URL wins.
	m, err = model.New(model.FromEnv(env("ANTHROPIC_API_KEY", "sk-test", "EDGAR13F_CHAT_URL", "http://localhost:11434/v1/", "EDGAR13F_AGENT_MODEL", "qwen3")))
	if _, ok := m.(*model.OpenAI); err != nil || !ok {
		t.Errorf("New with a chat URL and an Anthropic key = %T, %v, want *model.OpenAI", m, err)
	}
	if _, err := model.NewAnthropic("", "", nil); err == nil {
		t.Errorf("NewAnthropic accepted no key")
	}
}
