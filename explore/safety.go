package explore

import (
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
)

// Why an element is left alone (Skip.Reason).
const (
	skipSensitive = "sensitive"     // the guard holds it for consent
	skipToggles   = "toggles"       // a switch, checkbox or radio button, or a row holding one
	skipTypes     = "text field"    // tapping it would start typing
	skipActs      = "acts"          // its words say it does something rather than open a page
	skipBack      = "goes back"     // a back, up or close control: no new page
	skipDisabled  = "disabled"      // not enabled
	skipLeaves    = "leaves app"    // it once brought another app to the front
	skipNotTapped = "not clickable" // nothing to tap (a list, a label)
)

// actWords are controls that do something rather than open a page: a crawler with no model
// cannot tell what they change, so it leaves them alone. Whole words in Latin script, any
// case; CJK anywhere. The guard's vocabulary (pay, delete, send, …) is judged first.
var actWords = regexp.MustCompile(`(?i)\b(clear|reset|stop|force stop|restart|reboot|shut ?down|power off|uninstall|install|update|upgrade|download|disable|enable|turn on|turn off|switch on|switch off|sign out|log ?out|sign in|log ?in|register|sign up|subscribe|unsubscribe|allow|deny|block|unblock|accept|agree|decline|confirm|save|apply|submit|send|share|call|dial|add|create|new|edit|rename|move|copy|archive|mark|pin|unpin|mute|unmute|format|eject|pair|unpair|connect|disconnect|forget|restore|backup|back up|sync|refresh|retry|report|rate|like|follow|unfollow|favorite|favourite|record|start|play|take|scan|print|cast|lock|unlock)\b` +
	`|清除|清空|重置|停止|强行停止|卸载|安装|更新|升级|下载|禁用|启用|开启|关闭|打开|退出登录|登录|注册|订阅|允许|拒绝|屏蔽|同意|确认|确定|保存|应用|提交|发送|分享|拨打|呼叫|添加|新建|编辑|加入|收藏|关注|点赞|扫码|扫一扫|录制|开始|播放`)

// shortActs are labels that act when they are the whole label ("OK", "Open", "Yes"): as a
// word inside a row's label they often name a page ("Open by default").
var shortActs = map[string]bool{
	"ok": true, "okay": true, "yes": true, "no": true, "open": true, "launch": true, "go": true,
	"done": true, "continue": true, "next": true, "skip": true, "got it": true, "finish": true,
	"好": true, "好的": true, "是": true, "否": true, "继续": true, "下一步": true, "跳过": true, "完成": true, "知道了": true,
}

// backWords are controls that go back rather than forward.
var backWords = regexp.MustCompile(`(?i)\b(back|navigate up|up|close|cancel|dismiss|not now|later|exit)\b|返回|关闭|取消|以后再说|稍后|退出`)

// judge says why element el of screen s must not be tapped; "" when a tap is safe. known
// are what taps in the app were once seen to do (a row deleted): such an element is
// sensitive whatever its words.
func judge(g *guard.Guard, el *perception.Element, s *perception.Screen, known []event.LearnedEffect) string {
	switch {
	case !el.Clickable:
		return skipNotTapped
	case !el.Enabled:
		return skipDisabled
	case el.Editable || el.Password:
		return skipTypes
	case el.Checkable || checkableRole(el.Role) || holdsCheckable(el, s):
		return skipToggles
	}
	tap := event.Action{Type: event.Tap, Index: el.Index}
	if _, held := g.Check(tap, el, s); held {
		return skipSensitive
	}
	if _, held := g.Learned(tap, el, s, known); held {
		return skipSensitive
	}
	words := []string{el.Label, el.Text, el.Desc, resourceWords(el.ResourceID)}
	for _, w := range words {
		if backWords.MatchString(w) {
			return skipBack
		}
	}
	for _, w := range words {
		if actWords.MatchString(w) || shortActs[strings.ToLower(strings.TrimSpace(w))] {
			return skipActs
		}
	}
	return ""
}

func checkableRole(role string) bool {
	switch role {
	case "switch", "checkbox", "radio", "toggle":
		return true
	}
	return false
}

// holdsCheckable reports a row whose tap would reach a switch, checkbox or radio button
// inside it (Android's switch preference rows toggle when the row is tapped).
func holdsCheckable(el *perception.Element, s *perception.Screen) bool {
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.Index == el.Index || !(o.Checkable || checkableRole(o.Role)) {
			continue
		}
		if el.Bounds.Contains(o.Center) {
			return true
		}
	}
	return false
}

// resourceWords turns a resource id's name into words: "pkg:id/button_force_stop" →
// "button force stop".
func resourceWords(id string) string {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	return strings.ReplaceAll(id, "_", " ")
}
