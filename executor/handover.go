package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // a device's picture may be a JPEG
	pngenc "image/png"
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// Hand-over: a screen that needs the person themselves — a password, a one-time code, a
// fingerprint or face prompt, a CAPTCHA, a payment app's own PIN — is theirs. The executor
// types no secret and guesses none: it says what the screen needs, gives the phone to the
// person (the Interactor's HandOver), waits until they give it back, and reads the screen
// anew. What they did stays theirs: the trace holds a HandOver event (step, what was
// needed, for how long), never a text; no action is published for it, so nothing of it is
// learned as a step or a routine.

// Hander is an Interactor that can give the phone to the person; *interaction.Interactor
// satisfies it.
type Hander interface {
	HandOver(ctx context.Context, h interaction.HandOver) error
}

// maxHandOvers bounds the hand-overs of one app task: a screen that still needs the person
// after so many is not going to stop needing them.
const maxHandOvers = 4

// Who asked for a hand-over (event.HandOver.By).
const (
	handOverScreen = "screen"
	handOverPolicy = "policy"
	handOverModel  = "model"
)

var (
	// otpWords name a one-time code's field: its hint, label or resource id.
	otpWords = regexp.MustCompile(`(?i)one[- ]?time|(^|[^a-z])otp([^a-z]|$)|(sms|verify|verification)[_ ]?code|verification code|security code|confirmation code|2fa|two[- ]factor|auth(entication)? code|sms code|passcode|\bpin\b|验证码|校验码|动态码|動態碼|認証コード|確認コード|пин-?код|код подтверждения|رمز التحقق|קוד אימות`)
	// biometricWords are what a fingerprint or face prompt says — a prompt, not a settings
	// row named "Fingerprint".
	biometricWords = regexp.MustCompile(`(?i)(touch|place|put|scan|press|use|verify with|confirm with|unlock with)( the| your)? (finger|fingerprint|face)\b|fingerprint sensor|biometric (prompt|authentication|verification|login|sign-in)|confirm (it'?s|that it'?s) you|verify (it'?s|that it'?s) you|look at (the|your) (phone|screen)|验证指纹|按压指纹|触摸指纹|指纹验证|面容验证|人脸验证|刷脸|指紋認証|指紋をタッチ|المس مستشعر البصمة`)
	// captchaWords are what a CAPTCHA says.
	captchaWords = regexp.MustCompile(`(?i)captcha|i'?m not a robot|verify you are (a )?human|人机验证|图形验证`)
	// loginWords are what a sign-in page says (the "always hand over logins" policy).
	loginWords = regexp.MustCompile(`(?i)\b(sign|log) ?in\b|\blogin\b|登录|登入|ログイン|تسجيل الدخول|התחבר`)
)

// secretNeed says what s needs from the person themselves ("" when nothing): a password
// field, a one-time code's field, a biometric prompt, a CAPTCHA; and, when logins is set (the
// person's "always hand over logins"), a sign-in page with a field to fill. by is who asks.
func secretNeed(s *perception.Screen, logins bool) (need, by string) {
	if s == nil {
		return "", ""
	}
	var needs []string
	add := func(n string) {
		for _, x := range needs {
			if x == n {
				return
			}
		}
		needs = append(needs, n)
	}
	fields, login := false, false
	for i := range s.Elements {
		e := &s.Elements[i]
		label := e.Label
		if e.Editable && e.Text != "" && label == e.Text {
			label = "" // what a field holds is content (a note that mentions a PIN), not what it asks for
		}
		words := strings.Join([]string{label, e.Hint, e.Desc, e.ResourceID}, " ")
		switch {
		case e.Password:
			add("a password")
		case e.Editable && otpWords.MatchString(words):
			add("a one-time code")
		case biometricWords.MatchString(e.Label + " " + e.Desc):
			add("a fingerprint or face check")
		case captchaWords.MatchString(words):
			add("a CAPTCHA")
		}
		if e.Editable {
			fields = true
		}
		if loginWords.MatchString(e.Label + " " + e.Desc + " " + e.Hint) {
			login = true
		}
	}
	for _, c := range s.Context {
		switch {
		case biometricWords.MatchString(c):
			add("a fingerprint or face check")
		case captchaWords.MatchString(c):
			add("a CAPTCHA")
		}
		if loginWords.MatchString(c) {
			login = true
		}
	}
	if len(needs) > 0 {
		return strings.Join(needs, " and "), handOverScreen
	}
	if logins && fields && login {
		return "a login (your policy: always hand over logins)", handOverPolicy
	}
	return "", ""
}

// handOver gives the phone to the person for need and, once they give it back, reads the
// screen anew.
func (r *run) handOver(ctx context.Context, need, by string) (State, error) {
	if r.handOvers >= maxHandOvers {
		return r.fail(fmt.Sprintf("the screen still needs the person (%s) after %d hand-overs", need, r.handOvers))
	}
	h, ok := r.cfg.Interactor.(Hander)
	if !ok {
		return r.fail("the screen needs the person (" + need + ") and no one can take the phone: run with a person at the terminal")
	}
	r.handOvers++
	started := r.cfg.Clock()
	ev := event.HandOver{Step: r.step, App: r.a.Task.App, Reason: need, By: by, Started: started}
	r.publish(ev)
	var text string
	if r.screen != nil {
		text = r.screen.Text()
	}
	err := h.HandOver(ctx, interaction.HandOver{Step: r.step, App: r.a.Task.App, Reason: need, Screen: text})
	if t, ok := r.cfg.Device.(toucher); ok {
		// The person's hands changed the screen behind the device's back: what it kept of
		// the screen before the hand-over is not the screen now.
		t.Touched()
	}
	ev.Ended = r.cfg.Clock()
	ev.Duration = ev.Ended.Sub(started)
	// The person's time is not the task's: the time budget starts again where it was.
	r.start = r.start.Add(ev.Duration)
	if err != nil {
		ev.Error = err.Error()
		r.publish(ev)
		if ctx.Err() != nil {
			return stateError, err
		}
		if errors.Is(err, interaction.ErrNoAnswer) {
			return r.fail("the screen needs the person (" + need + ") and no one took the phone")
		}
		return stateError, err
	}
	r.publish(ev)
	if r.screen != nil {
		// Given back on this page as it is (a PIN field the task does not need): the person
		// chose; the agent goes on here, still typing no secret.
		r.handedBack = r.screen.Signature
	}
	r.planNote = append(r.planNote, prompts.NoteHandedBack{Step: r.step, Need: need, Took: ev.Duration})
	// Whatever the person did changed the screen: read it again, judge nothing they did.
	r.reuse, r.noActs, r.lastActs, r.expect = false, true, nil, ""
	return statePerceive, nil
}

// holdsSecret reports whether s has a field that holds or asks for a secret: a password
// field, a one-time code's field (secretAt: those painted over), one that asks for a code.
func holdsSecret(s *perception.Screen, secretAt []image.Rectangle) bool {
	if len(secretAt) > 0 {
		return true
	}
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Password || (e.Editable && otpWords.MatchString(strings.Join([]string{e.Hint, e.Desc, e.ResourceID}, " "))) {
			return true
		}
	}
	return false
}

// secretFields blanks, on s, the text of every field that holds a one-time code (a
// password field's text never shows: the phone masks it) and returns where they are, in
// the dump's frame: what the person typed there is theirs, and neither the models, the
// trace nor the picture (paintOver) see it.
func secretFields(s *perception.Screen) []image.Rectangle {
	if s == nil {
		return nil
	}
	var rects []image.Rectangle
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Editable || e.Password || e.Text == "" {
			continue
		}
		if !otpWords.MatchString(strings.Join([]string{e.Hint, e.Desc, e.ResourceID}, " ")) {
			continue
		}
		if e.Label == e.Text {
			e.Label = e.Hint
		}
		e.Text = ""
		rects = append(rects, image.Rect(e.Bounds.X1, e.Bounds.Y1, e.Bounds.X2, e.Bounds.Y2))
	}
	return rects
}

// paintOver returns the screenshot png of s painted over at rects (secretFields); png
// itself when there is nothing to paint, nil when it cannot be read (a picture that cannot
// be masked is not sent).
func paintOver(png []byte, s *perception.Screen, rects []image.Rectangle) []byte {
	if len(rects) == 0 || len(png) == 0 {
		return png
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		return nil
	}
	// Bounds are in the dump's frame; the screenshot may be another size.
	sx, sy := 1.0, 1.0
	if s.Width > 0 && s.Height > 0 {
		sx = float64(img.Bounds().Dx()) / float64(s.Width)
		sy = float64(img.Bounds().Dy()) / float64(s.Height)
	}
	dst := image.NewRGBA(img.Bounds())
	draw.Draw(dst, dst.Bounds(), img, img.Bounds().Min, draw.Src)
	grey := image.NewUniform(color.RGBA{0x9a, 0xa0, 0xa6, 0xff})
	for _, r := range rects {
		r = image.Rect(int(float64(r.Min.X)*sx), int(float64(r.Min.Y)*sy), int(float64(r.Max.X)*sx+0.5), int(float64(r.Max.Y)*sy+0.5))
		draw.Draw(dst, r.Add(dst.Bounds().Min), grey, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := pngenc.Encode(&buf, dst); err != nil {
		return nil
	}
	return buf.Bytes()
}

// Look is a picture of d's screen as it is now, for the person during a hand-over (the live
// page): read anew (the person's hands may have changed the screen behind the device's
// back), every one-time code's field painted over as the steps' pictures are (then PNG).
// A picture that cannot be masked is not returned.
func Look(ctx context.Context, d Device) ([]byte, error) {
	if t, ok := d.(toucher); ok {
		t.Touched()
	}
	xml, err := d.Dump(ctx)
	if err != nil {
		return nil, err
	}
	s, err := perception.Parse(xml)
	if err != nil {
		return nil, err
	}
	take := d.Screenshot
	if pt, ok := d.(pictureTaker); ok {
		take = pt.Picture // a model's picture: on the resident UI server a scaled JPEG frame
	}
	shot, err := take(ctx)
	if err != nil {
		return nil, err
	}
	if len(shot) == 0 {
		return nil, errors.New("executor: the phone gave no screenshot")
	}
	rects := secretFields(s)
	if len(rects) == 0 {
		if _, _, err := image.DecodeConfig(bytes.NewReader(shot)); err != nil {
			return nil, fmt.Errorf("executor: the phone's screenshot: %w", err)
		}
		return shot, nil
	}
	pic := paintOver(shot, s, rects)
	if pic == nil {
		return nil, errors.New("executor: the screenshot could not be masked: not shown")
	}
	return pic, nil
}
