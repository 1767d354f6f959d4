package sim

import (
	"testing"
)

func TestShellInterpreter(t *testing.T) {
	tests := []struct {
		name, line, want string
		status           int
	}{
		{"echo", "echo hello world", "hello world\n", 0},
		{"echo -n", "echo -n hi", "hi", 0},
		{"single quotes", `echo 'a  b' "c"`, "a  b c\n", 0},
		{"escaped quote", `echo 'it'\''s'`, "it's\n", 0},
		{"double quotes keep $?", `false; echo "__FAIRY_EXIT:$?"`, "__FAIRY_EXIT:1\n", 0},
		{"status after success", `true; echo "x$?"`, "x0\n", 0},
		{"and", "true && echo yes", "yes\n", 0},
		{"and short-circuits", "false && echo yes", "", 1},
		{"or", "false || echo no", "no\n", 0},
		{"semicolons", "echo a; echo b;", "a\nb\n", 0},
		{"backslash", `echo a\ b\$c`, "a b$c\n", 0},
		{"dollar in single quotes", `echo '$?'`, "$?\n", 0},
		{"braces", `echo ${HOME}x`, "/x\n", 0},
		{"unknown command", "frobnicate --x", "/system/bin/sh: frobnicate: not found\n", 127},
		{"unknown then status", "frobnicate; echo $?", "/system/bin/sh: frobnicate: not found\n127\n", 0},
		{"unterminated quote", `echo 'oops`, "/system/bin/sh: no closing quote\n", 1},
		{"redirect and cat", "echo saved > /sdcard/a.txt; cat /sdcard/a.txt", "saved\n", 0},
		{"append", "echo 1 > /sdcard/b; echo 2 >> /sdcard/b; cat /sdcard/b", "1\n2\n", 0},
		{"stderr to null", "cat /nope 2>/dev/null; echo $?", "1\n", 0},
		{"pipe grep", "echo -n 'a\nb'; printf x | cat", "", -1},
		{"pipe", "getprop | grep ro.product.model", "[ro.product.model]: [sdk_gphone64_x86_64]\n", 0},
		{"sh -c", `sh -c 'echo inner; exit 3'; echo $?`, "inner\n3\n", 0},
		{"cat missing", "cat /sdcard/missing.xml", "cat: /sdcard/missing.xml: No such file or directory\n", 1},
		{"rm missing", "rm /sdcard/missing.xml", "rm: /sdcard/missing.xml: No such file or directory\n", 1},
		{"rm -f missing", "rm -f /sdcard/missing.xml", "", 0},
		{"ls", "mkdir -p /sdcard/x/y; touch /sdcard/x/f; ls /sdcard/x", "f\ny\n", 0},
		{"comment", "echo a # b", "a\n", 0},
		{"variable", "A=5; echo $A", "5\n", 0},
		{"syntax", "&& echo x", "/system/bin/sh: syntax error: '&&' unexpected\n", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPhone(t)
			out, st := sh(t, p, tc.line)
			if tc.status < 0 {
				return // only must not fail
			}
			if out != tc.want || st != tc.status {
				t.Errorf("%s\n got %q (status %d)\nwant %q (status %d)", tc.line, out, st, tc.want, tc.status)
			}
		})
	}
}
