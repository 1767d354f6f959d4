#!/usr/bin/env bash
# Regenerates sim/cjkfont/DroidSansFallback-subset.ttf: the glyphs of Droid Sans Fallback
# (Android's CJK font, Apache License 2.0, Debian package fonts-droid-fallback) that the
# virtual phone's apps, the demo and the built-in suite show, plus CJK punctuation. The
# subset is committed, so the demo draws Chinese (and the Korean and Japanese the apps use)
# on a machine without the font; run this after adding CJK text to sim/apps, sim/*.go,
# cmd/fairy/demo or eval/suite/suites. A character left out is drawn as an outlined box.
# Needs Debian's fonts-droid-fallback and fonttools (installed here when root).
set -euo pipefail
cd "$(dirname "$0")/.."

src=/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf
if [ ! -f "$src" ] || ! /usr/bin/python3 -c 'import fontTools' 2>/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-droid-fallback python3-fonttools >/dev/null
	else
		echo "cjk-font.sh: install fonts-droid-fallback and python3-fonttools (Debian/Ubuntu)" >&2
		exit 2
	fi
fi

out=sim/cjkfont/DroidSansFallback-subset.ttf
/usr/bin/python3 - "$src" "$out" sim/apps/*.yaml sim/*.go cmd/fairy/demo/* eval/suite/suites/* <<'PY'
import re, sys
from fontTools import subset
from fontTools.ttLib import TTFont

src, out, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
# CJK radicals to ideographs, Hangul syllables, compatibility ideographs, vertical and
# fullwidth forms: what the Go fonts lack.
cjk = re.compile('[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]')
chars = set()
for path in inputs:
    if path.endswith('_test.go'):
        continue  # a test may draw a character on purpose to see it missing
    with open(path, encoding='utf-8') as f:
        chars.update(cjk.findall(f.read()))
# Punctuation any CJK text may carry.
chars.update('、。〈〉《》「」『』【】〔〕〜・ー！＂＃％＆＇（）＊＋，－．／：；＜＝＞？［］｛｝～￥')
text = ''.join(sorted(chars))
opts = subset.Options()
opts.layout_features = []
opts.hinting = False
opts.name_IDs = ['*']
opts.notdef_outline = True
opts.glyph_names = False
font = TTFont(src)
s = subset.Subsetter(opts)
s.populate(text=text)
s.subset(font)
font.save(out)
print(f'{out}: {len(text)} characters')
PY
ls -l "$out"
