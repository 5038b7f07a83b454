package media

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Info is what ffprobe reports of a media file.
type Info struct {
	// Duration is the container's duration (the longest stream's when the
	// container has none).
	Duration time.Duration
	// VideoCodec is the first video stream's codec, e.g. "h264"; "" when
	// there is no video stream (cover art is not video).
	VideoCodec string
	// AudioCodec is the first audio stream's codec, e.g. "aac"; "" when
	// there is no audio stream.
	AudioCodec string
	// Width and Height are the video's displayed size in pixels (swapped
	// when the stream is rotated by 90 degrees).
	Width, Height int
	// FrameRate is the video's average frame rate in frames per second.
	FrameRate float64
}

// probeOutput is the part of ffprobe's JSON that Probe reads.
type probeOutput struct {
	Streams []struct {
		CodecType    string            `json:"codec_type"`
		CodecName    string            `json:"codec_name"`
		Width        int               `json:"width"`
		Height       int               `json:"height"`
		AvgFrameRate string            `json:"avg_frame_rate"`
		RFrameRate   string            `json:"r_frame_rate"`
		Duration     string            `json:"duration"`
		Tags         map[string]string `json:"tags"`
		SideDataList []struct {
			Rotation json.Number `json:"rotation"`
		} `json:"side_data_list"`
		Disposition struct {
			AttachedPic int `json:"attached_pic"`
		} `json:"disposition"`
	} `json:"streams"`
	Format struct {
		Duration string `json:"duration"`
	} `json:"format"`
}

// Probe reads path's duration, codecs, size and frame rate with
// `ffprobe -print_format json -show_streams -show_format`.
func (t Tools) Probe(ctx context.Context, path string) (Info, error) {
	if err := need(t.FFprobe, "ffprobe", "ffmpeg"); err != nil {
		return Info{}, err
	}
	ctx, cancel := bounded(ctx, ProbeTimeout)
	defer cancel()
	out, err := run(ctx, "", t.FFprobe, "-v", "error", "-print_format", "json",
		"-show_streams", "-show_format", "-i", fileArg(path))
	if err != nil {
		return Info{}, fmt.Errorf("media: probe %s: %w", path, err)
	}
	var p probeOutput
	if err := json.Unmarshal(out, &p); err != nil {
		return Info{}, fmt.Errorf("media: probe %s: ffprobe's output: %w", path, err)
	}
	var info Info
	var longest time.Duration
	for _, s := range p.Streams {
		longest = max(longest, seconds(s.Duration))
		switch {
		case s.CodecType == "video" && s.Disposition.AttachedPic == 0 && info.VideoCodec == "":
			info.VideoCodec = s.CodecName
			info.Width, info.Height = s.Width, s.Height
			if rotated(s.Tags["rotate"], s.SideDataList) {
				info.Width, info.Height = info.Height, info.Width
			}
			info.FrameRate = rate(s.AvgFrameRate)
			if info.FrameRate == 0 {
				info.FrameRate = rate(s.RFrameRate)
			}
		case s.CodecType == "audio" && info.AudioCodec == "":
			info.AudioCodec = s.CodecName
		}
	}
	info.Duration = seconds(p.Format.Duration)
	if info.Duration == 0 {
		info.Duration = longest
	}
	return info, nil
}

// rotated reports a rotation by an odd multiple of 90 degrees in a stream's
// rotate tag or display-matrix side data.
func rotated(tag string, side []struct {
	Rotation json.Number `json:"rotation"`
}) bool {
	odd := func(s string) bool {
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && math.Mod(math.Abs(math.Round(f)), 180) == 90
	}
	if odd(tag) {
		return true
	}
	for _, d := range side {
		if odd(d.Rotation.String()) {
			return true
		}
	}
	return false
}

// seconds parses ffprobe's decimal seconds; "N/A" and junk are 0.
func seconds(s string) time.Duration {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0
	}
	return time.Duration(math.Round(f * float64(time.Second)))
}

// rate parses ffprobe's "num/den" frame rate; "0/0" is 0.
func rate(s string) float64 {
	num, den, ok := strings.Cut(s, "/")
	n, err1 := strconv.ParseFloat(num, 64)
	if !ok {
		if err1 != nil {
			return 0
		}
		return n
	}
	d, err2 := strconv.ParseFloat(den, 64)
	if err1 != nil || err2 != nil || d == 0 {
		return 0
	}
	return n / d
}
