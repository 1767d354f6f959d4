package adb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
)

// Without the resident server the screen is read with `screencap` raw, not `screencap -p`:
// the phone's PNG encoding of the whole screen is most of a screenshot's time (a median
// 2122 ms with -p against 675 ms raw, its 17.5 MB transfer included, on an Android 15
// emulator: elliotgao2.github.io/handsets, "Why adb screencap is slow"; "screencap takes
// 250ms or so to capture" and the rest is encoding: rom1v in Genymobile/scrcpy#112); the
// 10 MB of a 1080×2400 frame cross a USB 2.0 link in about 270 ms (38 MB/s,
// yume-chan/ya-webadb#510), and the host encodes it to a PNG at its fastest setting
// (BenchmarkRawToPNG: 79 ms a frame on a shared 2-core host), so every consumer still gets a
// PNG of ordinary size. A frame in a pixel format not read here falls back to -p for the
// device.

// Raw screencap pixel formats (android.graphics.PixelFormat / HAL_PIXEL_FORMAT_*).
const (
	rawRGBA8888 = 1
	rawRGBX8888 = 2
	rawBGRA8888 = 5
)

// rawScreenshot runs `screencap` and returns its frame as a PNG; ok is false when the
// frame's format is not one read here (nothing failed: the caller uses -p).
func (d *Device) rawScreenshot(ctx context.Context) (pngBytes []byte, secure, ok bool, err error) {
	r, err := d.run(ctx, "exec", "screencap", true)
	if err != nil {
		return nil, false, false, fmt.Errorf("adb screenshot: %w", err)
	}
	if r.status != 0 {
		return nil, false, false, fmt.Errorf("adb screenshot: %w", &exitError{Serial: d.serial, Command: "screencap",
			Status: r.status, Output: abbreviate(string(r.out), 200)})
	}
	img, black, ok, err := decodeRaw(r.out)
	if err != nil || !ok {
		if err != nil {
			err = fmt.Errorf("adb screenshot %s: %w", d.serial, err)
		}
		return nil, false, ok, err
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil, false, true, fmt.Errorf("adb screenshot %s: encode: %w", d.serial, err)
	}
	return b.Bytes(), black, true, nil
}

// decodeRaw reads a raw screencap: a header of width, height and pixel format (and, from
// Android 9, the data space: 16 bytes, else 12), then the rows. black reports an all-black
// frame (FLAG_SECURE). ok is false for a pixel format not read here.
func decodeRaw(b []byte) (img *image.NRGBA, black, ok bool, err error) {
	if len(b) < 12 {
		return nil, false, false, fmt.Errorf("%w: raw frame of %d bytes", errScreenshot, len(b))
	}
	w := int(binary.LittleEndian.Uint32(b[0:]))
	h := int(binary.LittleEndian.Uint32(b[4:]))
	f := binary.LittleEndian.Uint32(b[8:])
	if w <= 0 || h <= 0 || w > 1<<14 || h > 1<<14 {
		return nil, false, false, fmt.Errorf("%w: raw frame %dx%d", errScreenshot, w, h)
	}
	if f != rawRGBA8888 && f != rawRGBX8888 && f != rawBGRA8888 {
		return nil, false, false, nil
	}
	n := w * h * 4
	var pix []byte
	switch len(b) {
	case 16 + n:
		pix = b[16:]
	case 12 + n:
		pix = b[12:]
	default:
		return nil, false, false, fmt.Errorf("%w: raw frame %dx%d of %d bytes (truncated?)", errScreenshot, w, h, len(b))
	}
	img = image.NewNRGBA(image.Rect(0, 0, w, h))
	black = true
	for i := 0; i < n; i += 4 {
		r, g, bl := pix[i], pix[i+1], pix[i+2]
		if f == rawBGRA8888 {
			r, bl = bl, r
		}
		if r > 8 || g > 8 || bl > 8 {
			black = false
		}
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = r, g, bl, 0xff
	}
	return img, black, true, nil
}
