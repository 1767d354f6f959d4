// Drives the virtual phone's Appium UiAutomator2 server, reached through `adb forward`,
// with webdriverio's `webdriver` package (the W3C client Appium's own clients build on)
// and prints one JSON object of what each operation returned. Any failing operation makes
// the script exit non-zero with the operation named. Env: UIA2_PORT (the forwarded port).
'use strict';
process.env.WDIO_LOG_LEVEL = 'silent'; // the result is the only line on stdout
const WebDriver = require('webdriver');

const port = Number(process.env.UIA2_PORT);
const out = {};

async function step(name, fn) {
  try {
    out[name] = await fn();
  } catch (err) {
    console.log(JSON.stringify(out));
    console.error(`webdriver ${name}: ${err && err.stack || err}`);
    process.exit(1);
  }
  return out[name];
}

(async () => {
  const client = await step('session', async () => {
    const c = await WebDriver.newSession({
      protocol: 'http', hostname: '127.0.0.1', port, path: '/wd/hub', logLevel: 'silent',
      connectionRetryCount: 0,
      capabilities: { platformName: 'Android', 'appium:automationName': 'UiAutomator2' },
    });
    return c;
  });
  out.session = { id: client.sessionId };
  await step('status', async () => (await client.status()).ready);
  await step('settings', async () => {
    await client.updateSettings({ waitForIdleTimeout: 1500 });
    return (await client.getSettings()).waitForIdleTimeout;
  });
  await step('source', async () => {
    const xml = await client.getPageSource();
    return { head: xml.slice(0, 200), hasSettings: xml.includes('text="Settings"'), bytes: xml.length };
  });
  await step('screenshot', async () => {
    const png = Buffer.from(await client.takeScreenshot(), 'base64');
    return { magic: png.subarray(1, 4).toString(), width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  });
  await step('windowSize', async () => client.getWindowRect());
  const el = await step('find', async () => client.findElement('xpath', "//*[@text='Settings']"));
  const id = el['element-6066-11e4-a52e-4f735466cecf'];
  await step('text', async () => client.getElementText(id));
  await step('rect', async () => client.getElementRect(id));
  await step('missing', async () => {
    // webdriver answers a failed find with the error instead of throwing it.
    try {
      const r = await client.findElement('id', 'no_such_view');
      return r && r.error ? String(r.error) : 'found';
    } catch (err) {
      return String(err.name || err.message);
    }
  });
  await step('click', async () => { await client.elementClick(id); return true; });
  await step('keyboard', async () => client.isKeyboardShown());
  await step('after', async () => (await client.getPageSource()).includes('com.android.settings'));
  await step('delete', async () => { await client.deleteSession(); return true; });
  console.log(JSON.stringify(out));
})();
