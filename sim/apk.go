package sim

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
)

// errBadAPK is what pm install answers for a file that is not an APK it can read.
var errBadAPK = errors.New("INSTALL_PARSE_FAILED_NOT_APK")

// maxManifest bounds an APK's AndroidManifest.xml (real ones are kilobytes).
const maxManifest = 8 << 20

// apkInfo is what the package manager reads from an APK's manifest.
type apkInfo struct {
	pkg         string
	versionCode int64
	versionName string
	minSdk      int
	targetSdk   int
	permissions []string // uses-permission names
	// instrumentations are the <instrumentation> runners (class name, fully qualified)
	// and the package each one targets.
	instrumentations []apkInstrumentation
}

type apkInstrumentation struct {
	name, target string
}

// readAPK reads an APK's manifest: <manifest package versionCode versionName>, <uses-sdk>,
// <uses-permission> and <instrumentation> in its binary AndroidManifest.xml (the resource
// chunk format of AOSP ResourceTypes.h: a string pool, then XML tree chunks).
// Hand-written: github.com/shogo82148/androidbinary, the Go reader of this format, is not
// served by the module proxy this project can reach (403), and only these attributes are
// needed.
func readAPK(apk []byte) (apkInfo, error) {
	zr, err := zip.NewReader(bytes.NewReader(apk), int64(len(apk)))
	if err != nil {
		return apkInfo{}, fmt.Errorf("%w: %v", errBadAPK, err)
	}
	var manifest []byte
	for _, f := range zr.File {
		if f.Name != "AndroidManifest.xml" {
			continue
		}
		// One manifest, of a bounded size: thousands of entries of that name, each
		// inflating to megabytes, would otherwise take the phone's time for hours.
		if manifest != nil {
			return apkInfo{}, fmt.Errorf("%w: more than one AndroidManifest.xml", errBadAPK)
		}
		if f.UncompressedSize64 > maxManifest {
			return apkInfo{}, fmt.Errorf("%w: AndroidManifest.xml is over %d MiB", errBadAPK, maxManifest>>20)
		}
		rc, err := f.Open()
		if err != nil {
			return apkInfo{}, fmt.Errorf("%w: %v", errBadAPK, err)
		}
		manifest, err = io.ReadAll(io.LimitReader(rc, maxManifest+1))
		_ = rc.Close()
		if err != nil {
			return apkInfo{}, fmt.Errorf("%w: %v", errBadAPK, err)
		}
		if len(manifest) > maxManifest {
			return apkInfo{}, fmt.Errorf("%w: AndroidManifest.xml is over %d MiB", errBadAPK, maxManifest>>20)
		}
	}
	if manifest == nil {
		return apkInfo{}, fmt.Errorf("%w: no AndroidManifest.xml", errBadAPK)
	}
	info, ok := manifestInfo(manifest)
	if !ok || info.pkg == "" {
		return apkInfo{}, fmt.Errorf("%w: no package in AndroidManifest.xml", errBadAPK)
	}
	return info, nil
}

// apkPackage reads the package name from an APK.
func apkPackage(apk []byte) (string, error) {
	info, err := readAPK(apk)
	return info.pkg, err
}

// xmlAttr is one attribute of a binary XML start element: its string value (raw, or the
// pool string a string-typed value names) and its typed data.
type xmlAttr struct {
	str      string
	dataType byte
	data     uint32
}

// manifestInfo walks the binary XML's chunks for the elements apkInfo holds.
func manifestInfo(b []byte) (apkInfo, bool) {
	le := binary.LittleEndian
	var info apkInfo
	if len(b) < 8 || le.Uint16(b) != 0x0003 {
		return info, false
	}
	var pool []string
	off := int(le.Uint16(b[2:]))
	for off+8 <= len(b) {
		typ, hsize, size := le.Uint16(b[off:]), int(le.Uint16(b[off+2:])), int(le.Uint32(b[off+4:]))
		if size < 8 || off+size > len(b) || hsize > size {
			return info, false
		}
		chunk := b[off : off+size]
		switch typ {
		case 0x0001: // string pool
			pool = stringPool(chunk, hsize)
		case 0x0102: // start element
			if len(chunk) < hsize+20 {
				return info, false
			}
			ext := chunk[hsize:]
			name := int(le.Uint32(ext[4:]))
			if name >= len(pool) {
				break
			}
			attrs := map[string]xmlAttr{}
			start, asize, count := int(le.Uint16(ext[8:])), int(le.Uint16(ext[10:])), int(le.Uint16(ext[12:]))
			for i := range count {
				a := hsize + start + i*asize
				if asize < 20 || a+20 > len(chunk) {
					return info, false
				}
				an, raw := int(le.Uint32(chunk[a+4:])), le.Uint32(chunk[a+8:])
				if an >= len(pool) {
					continue
				}
				v := xmlAttr{dataType: chunk[a+15], data: le.Uint32(chunk[a+16:])}
				if int(raw) < len(pool) {
					v.str = pool[raw]
				} else if v.dataType == 0x03 && int(v.data) < len(pool) {
					v.str = pool[v.data]
				}
				attrs[pool[an]] = v
			}
			switch pool[name] {
			case "manifest":
				info.pkg = attrs["package"].str
				info.versionName = attrs["versionName"].str
				if v, ok := attrs["versionCode"]; ok && v.dataType >= 0x10 && v.dataType <= 0x1f {
					info.versionCode = int64(v.data)
				}
			case "uses-sdk":
				info.minSdk = attrInt(attrs["minSdkVersion"])
				info.targetSdk = attrInt(attrs["targetSdkVersion"])
			case "uses-permission":
				if n := attrs["name"].str; n != "" {
					info.permissions = append(info.permissions, n)
				}
			case "instrumentation":
				n := attrs["name"].str
				if strings.HasPrefix(n, ".") {
					n = info.pkg + n
				}
				info.instrumentations = append(info.instrumentations, apkInstrumentation{name: n,
					target: attrs["targetPackage"].str})
			}
		}
		off += size
	}
	return info, info.pkg != ""
}

// attrInt is an integer attribute's value (typed, or written as a string).
func attrInt(a xmlAttr) int {
	if a.dataType >= 0x10 && a.dataType <= 0x1f {
		return int(int32(a.data))
	}
	n, _ := strconv.Atoi(a.str)
	return n
}

// stringPool decodes a string pool chunk (UTF-8 or UTF-16 strings).
func stringPool(c []byte, hsize int) []string {
	le := binary.LittleEndian
	if len(c) < 28 {
		return nil
	}
	count, flags, start := int(le.Uint32(c[8:])), le.Uint32(c[16:]), int(le.Uint32(c[20:]))
	utf8 := flags&(1<<8) != 0
	if hsize+count*4 > len(c) || start > len(c) {
		return nil
	}
	out := make([]string, count)
	for i := range count {
		p := start + int(le.Uint32(c[hsize+i*4:]))
		if p >= len(c) {
			continue
		}
		if utf8 {
			_ = lenUTF8(c, &p) // the length in UTF-16 units, unused
			n := lenUTF8(c, &p)
			if p+n <= len(c) {
				out[i] = string(c[p : p+n])
			}
			continue
		}
		if p+2 > len(c) {
			continue
		}
		n := int(le.Uint16(c[p:]))
		p += 2
		if n&0x8000 != 0 && p+2 <= len(c) {
			n = (n&0x7fff)<<16 | int(le.Uint16(c[p:]))
			p += 2
		}
		if p+2*n > len(c) {
			continue
		}
		u := make([]uint16, n)
		for j := range u {
			u[j] = le.Uint16(c[p+2*j:])
		}
		out[i] = string(utf16.Decode(u))
	}
	return out
}

// lenUTF8 reads a UTF-8 pool length (one byte, or two when the high bit is set) at *p.
func lenUTF8(c []byte, p *int) int {
	if *p >= len(c) {
		return 0
	}
	n := int(c[*p])
	*p++
	if n&0x80 != 0 && *p < len(c) {
		n = (n&0x7f)<<8 | int(c[*p])
		*p++
	}
	return n
}
