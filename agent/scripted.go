package agent

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
)

// ScriptedModel is the scripted model (a test double, not a real model) served over HTTP on a
// free loopback port, so a run reaches it through the real OpenAI adapter.
type ScriptedModel struct {
	Script *scripted.Server
	URL    string         // base URL, "http://127.0.0.1:PORT/v1"
	Model  *openai.Client // the adapter pointed at URL
	hs     *http.Server
	done   chan error
}

// ServeScriptedModel serves rules until Close. client configures the adapter (retries, logger);
// its BaseURL and DefaultModel are the endpoint's.
func ServeScriptedModel(rules []scripted.Rule, client openai.Config, log *slog.Logger) (*ScriptedModel, error) {
	return ServeScriptedModelWith(rules, scripted.Options{Logger: log}, client)
}

// ServeScriptedModelWith is ServeScriptedModel with the server's options (its logger, the
// family its decider answers in).
func ServeScriptedModelWith(rules []scripted.Rule, opts scripted.Options, client openai.Config) (*ScriptedModel, error) {
	srv, err := scripted.NewServer(rules, opts)
	if err != nil {
		return nil, fmt.Errorf("scripted model: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("scripted model: listen: %w", err)
	}
	s := &ScriptedModel{Script: srv, URL: "http://" + ln.Addr().String() + "/v1",
		hs: &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}, done: make(chan error, 1)}
	go func() { s.done <- s.hs.Serve(ln) }()
	client.BaseURL, client.DefaultModel = s.URL, scripted.ModelName
	if s.Model, err = openai.New(client); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("scripted model: client: %w", err)
	}
	return s, nil
}

// Close stops the server at once. It is called when the run is over, so no answer is cut;
// Shutdown would wait for a connection the client dialed but never used (http.StateNew)
// for as long as its context allows.
func (s *ScriptedModel) Close() error {
	err := s.hs.Close()
	if serr := <-s.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
