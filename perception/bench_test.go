package perception

import (
	"fmt"
	"image"
	"strings"
	"testing"
)

// synthDump writes a stock-format dump of about n nodes shaped like a real
// app page: a toolbar and a long list of rows (container, avatar, title,
// subtitle, action button), with the classic attribute set.
func synthDump(n int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`)
	node := func(class, text, rid, desc string, clickable, scrollable bool, x1, y1, x2, y2 int, open bool) {
		fmt.Fprintf(&b, `<node index="0" text="%s" resource-id="%s" class="%s" package="com.example.mail" content-desc="%s" checkable="false" checked="false" clickable="%t" enabled="true" focusable="%t" focused="false" scrollable="%t" long-clickable="false" password="false" selected="false" bounds="[%d,%d][%d,%d]"`,
			text, rid, class, desc, clickable, clickable, scrollable, x1, y1, x2, y2)
		if open {
			b.WriteString(">")
		} else {
			b.WriteString(" />")
		}
	}
	node("android.widget.FrameLayout", "", "", "", false, false, 0, 0, 1080, 2400, true)
	node("android.widget.LinearLayout", "", "com.example.mail:id/toolbar", "", false, false, 0, 0, 1080, 200, true)
	node("android.widget.ImageButton", "", "", "Open navigation drawer", true, false, 0, 0, 200, 200, false)
	node("android.widget.TextView", "Inbox", "com.example.mail:id/title", "", false, false, 200, 0, 880, 200, false)
	b.WriteString("</node>")
	node("androidx.recyclerview.widget.RecyclerView", "", "com.example.mail:id/list", "", false, true, 0, 200, 1080, 2400, true)
	count := 5
	for row := 0; count < n; row++ {
		y := 200 + (row%11)*200
		node("android.widget.LinearLayout", "", "com.example.mail:id/row", "", true, false, 0, y, 1080, y+200, true)
		node("android.widget.ImageView", "", "com.example.mail:id/avatar", "", false, false, 20, y+20, 180, y+180, false)
		node("android.widget.TextView", fmt.Sprintf("Sender number %d &amp; co", row), "com.example.mail:id/from", "", false, false, 200, y+20, 900, y+100, false)
		node("android.widget.TextView", fmt.Sprintf("Subject line %d: lunch on Friday? Let me know by noon", row), "com.example.mail:id/subject", "", false, false, 200, y+100, 900, y+180, false)
		node("android.widget.ImageButton", "", "com.example.mail:id/star", "Star", true, false, 920, y+40, 1060, y+160, false)
		b.WriteString("</node>")
		count += 5
	}
	b.WriteString("</node></node></hierarchy>")
	return []byte(b.String())
}

// BenchmarkPerceive1000 measures parse + index + text form of a 1,000-node
// dump (target ≤ 2 ms/op).
func BenchmarkPerceive1000(b *testing.B) {
	data := synthDump(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var text string
	for b.Loop() {
		s, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		text = s.Text()
	}
	b.ReportMetric(float64(len(text))/float64(len(data)), "text/xml")
}

// BenchmarkFindMarks is what looking for icons with no text adds to the read of an
// uncovered region not read before (a WebView page of 1080x2043 with text and a button;
// a region read before costs its hash only).
func BenchmarkFindMarks(b *testing.B) {
	shot := drawnShot()
	rr := image.Rect(0, 231, 1080, 2274)
	for b.Loop() {
		findMarks(shot, rr, nil)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/region")
}
