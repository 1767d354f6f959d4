package perception_test

import (
	"fmt"

	"github.com/fairy-go/fairy/perception"
)

func ExampleParse() {
	dump := []byte(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
 <node class="android.widget.FrameLayout" package="com.example.chat" bounds="[0,0][1080,2400]">
  <node class="android.widget.TextView" package="com.example.chat" text="Alice" bounds="[0,0][1080,200]"/>
  <node class="android.widget.EditText" package="com.example.chat" resource-id="com.example.chat:id/compose" clickable="true" focused="true" hint="Message" bounds="[0,2200][900,2400]"/>
  <node class="android.widget.FrameLayout" package="com.example.chat" clickable="true" resource-id="com.example.chat:id/send_btn" bounds="[900,2200][1080,2400]">
   <node class="android.widget.TextView" package="com.example.chat" text="Send" bounds="[920,2250][1060,2350]"/>
  </node>
 </node>
</hierarchy>
UI hierchary dumped to: /dev/tty`)
	s, err := perception.Parse(dump)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s.Text())
	send := s.Elements[1]
	fmt.Println(s.Package, send.Index, send.Label, send.Center)
	// Output:
	// - "Alice"
	// - [1] input id=compose focused hint="Message"
	// - [2] item "Send" id=send_btn
	// com.example.chat 2 Send {990 2300}
}

func ExampleDiff() {
	before, _ := perception.Parse([]byte(`<hierarchy><node class="android.widget.Switch" package="p" text="Wi-Fi" checkable="true" clickable="true" bounds="[0,0][100,100]"/></hierarchy>`))
	after, _ := perception.Parse([]byte(`<hierarchy><node class="android.widget.Switch" package="p" text="Wi-Fi" checkable="true" checked="true" clickable="true" bounds="[0,0][100,100]"/></hierarchy>`))
	fmt.Print(perception.Diff(before, after))
	// Output:
	// same page
	// changed: switch "Wi-Fi": unchecked -> checked
}
