// Drives one virtual phone through the real adb server with @devicefarmer/adbkit and prints
// one JSON object of what each operation returned. Any failing operation makes the script
// exit non-zero with the operation named. Env: ADB_PORT (the adb server), SERIAL.
'use strict';
const crypto = require('crypto');
const { Adb } = require('@devicefarmer/adbkit');

const port = Number(process.env.ADB_PORT);
const serial = process.env.SERIAL;
const client = Adb.createClient({ host: '127.0.0.1', port });
const device = client.getDevice(serial);
const out = {};

const readAll = (stream) => new Promise((resolve, reject) => {
  const chunks = [];
  stream.on('data', (c) => chunks.push(c));
  stream.on('end', () => resolve(Buffer.concat(chunks)));
  stream.on('error', reject);
});
const transfer = (t) => new Promise((resolve, reject) => {
  t.on('end', resolve);
  t.on('error', reject);
});

async function step(name, fn) {
  try {
    out[name] = await fn();
  } catch (err) {
    console.log(JSON.stringify(out));
    console.error(`adbkit ${name}: ${err && err.stack || err}`);
    process.exit(1);
  }
}

(async () => {
  await step('devices', async () => (await client.listDevices()).map((d) => `${d.id} ${d.type}`));
  await step('properties', async () => {
    const p = await device.getProperties();
    return { release: p['ro.build.version.release'], model: p['ro.product.model'], sdk: p['ro.build.version.sdk'] };
  });
  await step('features', async () => {
    const f = await device.getFeatures();
    return { count: Object.keys(f).length, touchscreen: f['android.hardware.touchscreen'] === true, gles: f.reqGlEsVersion };
  });
  await step('packages', async () => (await device.getPackages()).sort());
  await step('shell', async () => (await readAll(await device.shell('echo hello from adbkit'))).toString());
  await step('dump', async () => {
    const xml = (await readAll(await device.shell('uiautomator dump /dev/tty'))).toString();
    return { head: xml.slice(0, 100), trailer: xml.includes('UI hierchary dumped to: /dev/tty') };
  });
  await step('screencap', async () => {
    const png = await readAll(await device.screencap());
    return { png: png.slice(1, 4).toString(), width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  });
  await step('framebuffer', async () => {
    const fb = await device.framebuffer('raw');
    const raw = await readAll(fb);
    // adbkit reads the version-1 header (52 bytes): on a version-2 frame (Android 8.1+)
    // the colorSpace field shifts what it names size, width and height, and the last 4
    // header bytes lead the pixels.
    return { version: fb.meta.version, bpp: fb.meta.bpp, bytes: raw.length, pixelsSHA256: crypto.createHash('sha256').update(raw.subarray(4)).digest('hex') };
  });
  const blob = crypto.randomBytes(1 << 20);
  await step('push', async () => {
    const local = require('path').join(require('os').tmpdir(), `adbkit-${process.pid}.bin`);
    require('fs').writeFileSync(local, blob);
    try {
      await transfer(await device.push(local, '/data/local/tmp/adbkit.bin', 0o644));
    } finally {
      require('fs').unlinkSync(local);
    }
    return blob.length;
  });
  await step('stat', async () => {
    const st = await device.stat('/data/local/tmp/adbkit.bin');
    const sh = await device.stat('/system/bin/sh');
    return { size: st.size, shMode: (sh.mode & 0o777).toString(8), shSize: sh.size };
  });
  await step('pull', async () => {
    const got = await readAll(await device.pull('/data/local/tmp/adbkit.bin'));
    return { bytes: got.length, equal: got.equals(blob) };
  });
  await step('readdir', async () => (await device.readdir('/data/local/tmp')).map((e) => e.name).sort());
  await step('startActivity', async () => device.startActivity({ component: 'com.android.contacts/.activities.PeopleActivity', wait: true }));
  await step('focus', async () => (await readAll(await device.shell('dumpsys window | grep mCurrentFocus'))).toString().trim());
  await step('forward', async () => {
    // tcp:0: the adb server picks a free port and lists it.
    await device.forward('tcp:0', 'tcp:9008');
    return (await device.listForwards()).map((f) => `${f.serial} ${f.local} ${f.remote}`);
  });
  await step('reverse', async () => {
    await device.reverse('tcp:8081', 'tcp:8082');
    return (await device.listReverses()).map((r) => `${r.remote} ${r.local}`);
  });
  await step('openTcpRefused', async () => {
    // Nothing listens on device port 4444: the stream is refused, never left hanging.
    try {
      const s = await device.openTcp(4444);
      const b = await readAll(s);
      return `opened, ${b.length} bytes`;
    } catch (err) {
      return `refused: ${err.message}`;
    }
  });
  await step('procStat', async () => {
    const ps = await device.openProcStat(1000);
    const stats = await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no /proc/stat reading in 5 s')), 5000);
      ps.once('load', (s) => { clearTimeout(t); resolve(s); });
      ps.once('error', reject);
    });
    ps.end();
    return Object.keys(stats).sort();
  });
  console.log(JSON.stringify(out));
})();
