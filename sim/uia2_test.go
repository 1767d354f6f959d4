package sim

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// uiServerCall answers one request of the emulated UiAutomator2 server and decodes its value.
func uiServerCall(t *testing.T, p *Phone, method, path, body string) (int, any) {
	t.Helper()
	status, out := p.uiServerAnswer(t.Context(), method, path, []byte(body))
	var v struct{ Value any }
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s %s: %v: %s", method, path, err, out)
	}
	return status, v.Value
}

// TestUIServerDriverRoutes: what Appium's uiautomator2 driver asks at a session's start
// (pixel ratio, system bars, device info) and its element commands in the server's own
// form (strategy/selector, send keys, clear, attributes, Back).
func TestUIServerDriverRoutes(t *testing.T) {
	p := newPhone(t, func(c *Config) { c.UIServer = true })
	_, v := uiServerCall(t, p, http.MethodPost, "/session", `{"capabilities":{}}`)
	sid := v.(map[string]any)["sessionId"].(string)
	s := "/session/" + sid
	if _, v := uiServerCall(t, p, http.MethodGet, s+"/appium/device/pixel_ratio", ""); v != 2.625 {
		t.Errorf("pixel_ratio %v, want 2.625 (420 dpi)", v)
	}
	if _, v := uiServerCall(t, p, http.MethodGet, s+"/appium/device/system_bars", ""); v.(map[string]any)["statusBar"] != 63.0 {
		t.Errorf("system_bars %v", v)
	}
	_, v = uiServerCall(t, p, http.MethodGet, s+"/appium/device/info", "")
	info := v.(map[string]any)
	if info["apiVersion"] != "34" || info["platformVersion"] != "14" || info["realDisplaySize"] != "1080x2400" || info["model"] == "" {
		t.Errorf("device info %v", info)
	}

	launch(t, p, "com.android.contacts")
	st, v := uiServerCall(t, p, http.MethodPost, s+"/element", `{"strategy":"id","selector":"com.android.contacts:id/search_view","context":"","multiple":false}`)
	if st != http.StatusOK {
		t.Fatalf("find by strategy/selector: %d %v", st, v)
	}
	el := s + "/element/" + v.(map[string]any)[w3cElementKey].(string)
	if _, v := uiServerCall(t, p, http.MethodGet, el+"/attribute/class", ""); v != "android.widget.EditText" {
		t.Errorf("attribute class %v", v)
	}
	if _, v := uiServerCall(t, p, http.MethodGet, el+"/enabled", ""); v != true {
		t.Errorf("enabled %v", v)
	}
	if st, v := uiServerCall(t, p, http.MethodPost, el+"/value", `{"text":"Ali","replace":false}`); st != http.StatusOK {
		t.Fatalf("send keys: %d %v", st, v)
	}
	if !strings.Contains(string(p.appiumSourceLocked()), `text="Ali"`) {
		t.Error("the field does not hold the typed text")
	}
	if st, _ := uiServerCall(t, p, http.MethodPost, el+"/clear", `{}`); st != http.StatusOK || strings.Contains(string(p.appiumSourceLocked()), `text="Ali"`) {
		t.Errorf("clear: %d", st)
	}
	uiServerCall(t, p, http.MethodPost, s+"/back", `{}`) // closes the keyboard
	uiServerCall(t, p, http.MethodPost, s+"/back", `{}`)
	if pkg, _ := p.Foreground(); pkg == "com.android.contacts" {
		t.Error("Back left the phone in contacts")
	}
	_, v = uiServerCall(t, p, http.MethodPost, s+"/element", `{"strategy":"xpath","selector":"//*[@text='Settings']"}`)
	lab := s + "/element/" + v.(map[string]any)[w3cElementKey].(string)
	if st, v := uiServerCall(t, p, http.MethodPost, lab+"/value", `{"text":"x"}`); st != http.StatusBadRequest || !strings.Contains(v.(map[string]any)["message"].(string), "not an editable field") {
		t.Errorf("typing into a label: %d %v", st, v)
	}
}
