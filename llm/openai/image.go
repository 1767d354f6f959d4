package openai

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/jpeg"
	_ "image/png" // decode PNG screenshots for re-encoding
	"math"
	"net/http"

	"github.com/fairy-go/fairy/llm"
	"golang.org/x/image/draw"
)

// dataURL encodes img as a data URL no larger than limit raw bytes, re-encoding as JPEG and
// then downscaling when it is over.
func dataURL(img llm.Image, limit int) (string, error) {
	data, mime := img.Data, img.MIME
	if len(data) == 0 {
		return "", fmt.Errorf("image: empty")
	}
	if mime == "" {
		mime = http.DetectContentType(data)
	}
	if len(data) > limit {
		small, err := shrink(data, limit)
		if err != nil {
			return "", err
		}
		data, mime = small, "image/jpeg"
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

// shrink re-encodes data as JPEG, scaling it down until it fits limit.
func shrink(data []byte, limit int) ([]byte, error) {
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %d bytes over the %d-byte limit and not decodable for downscaling: %v",
			errImageTooLarge, len(data), limit, err)
	}
	var buf bytes.Buffer
	cur := src
	for try := 0; try < 8; try++ {
		buf.Reset()
		if err := jpeg.Encode(&buf, cur, &jpeg.Options{Quality: 80}); err != nil {
			return nil, fmt.Errorf("image: encode jpeg: %w", err)
		}
		if buf.Len() <= limit {
			return buf.Bytes(), nil
		}
		f := math.Sqrt(float64(limit)/float64(buf.Len())) * 0.9
		b := cur.Bounds()
		w, h := int(float64(b.Dx())*f), int(float64(b.Dy())*f)
		if w < 16 || h < 16 {
			break
		}
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
		cur = dst
	}
	return nil, fmt.Errorf("%w: %d bytes and still over the %d-byte limit after downscaling; raise the image size limit",
		errImageTooLarge, len(data), limit)
}
