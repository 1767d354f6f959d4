// adbkit's framebuffer('png') on the virtual phone: adbkit reads the frame's header and
// converts the pixels with GraphicsMagick (`gm convert`). Prints one JSON object:
//   png:    the header fields adbkit read, how many PNG bytes came out, and whether the
//           stream ended, failed or stayed silent for WAIT_MS;
//   manual: the same frame from framebuffer('raw') read with the version-2 header and
//           converted with `gm convert` by hand — the PNG, base64.
// Env: ADB_PORT, SERIAL, WAIT_MS.
'use strict';
const { spawn } = require('child_process');
const { Adb } = require('@devicefarmer/adbkit');

const client = Adb.createClient({ host: '127.0.0.1', port: Number(process.env.ADB_PORT) });
const device = client.getDevice(process.env.SERIAL);
const wait = Number(process.env.WAIT_MS || 3000);

const readAll = (stream) => new Promise((resolve, reject) => {
  const chunks = [];
  stream.on('data', (c) => chunks.push(c));
  stream.on('end', () => resolve(Buffer.concat(chunks)));
  stream.on('error', reject);
});

async function viaAdbkit() {
  const out = {};
  let fb;
  try {
    fb = await device.framebuffer('png');
  } catch (err) {
    out.error = String(err && err.message || err);
    return out;
  }
  const m = fb.meta;
  out.meta = { version: m.version, bpp: m.bpp, size: m.size, width: m.width, height: m.height, format: m.format };
  const chunks = [];
  out.outcome = await new Promise((resolve) => {
    const t = setTimeout(() => resolve('silent'), wait);
    fb.on('data', (c) => chunks.push(c));
    fb.on('end', () => { clearTimeout(t); resolve('ended'); });
    fb.on('error', (err) => { clearTimeout(t); out.error = String(err && err.message || err); resolve('failed'); });
  });
  out.bytes = Buffer.concat(chunks).length;
  return out;
}

async function byHand() {
  // adbkit consumed 52 header bytes; a version-2 header has 56: the first 4 bytes left are
  // the last header field. Width is the real header's, which adbkit read as "height".
  const fb = await device.framebuffer('raw');
  const pixels = (await readAll(fb)).subarray(4);
  const width = fb.meta.height;
  const height = pixels.length / 4 / width;
  const gm = spawn('gm', ['convert', '-size', `${width}x${height}`, '-depth', '8', 'rgba:-', 'png:-']);
  const png = readAll(gm.stdout);
  const code = new Promise((resolve, reject) => { gm.on('error', reject); gm.on('close', resolve); });
  gm.stdin.end(pixels);
  return { exit: await code, png: (await png).toString('base64') };
}

(async () => {
  const out = {};
  try {
    out.png = await viaAdbkit();
    out.manual = await byHand();
  } catch (err) {
    console.error(`adbkit framebuffer png: ${err && err.stack || err}`);
    // stdout to a pipe is written asynchronously: exit once the whole line is out, or a
    // large PNG is cut short.
    process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(1));
    return;
  }
  // adbkit's gm may still wait on its input; leaving closes it (once stdout is flushed).
  process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(0));
})();
