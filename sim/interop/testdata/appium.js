// Drives the virtual phone through a real Appium 3 server and its UiAutomator2 driver
// (both from npm) with webdriverio's `webdriver` client, as a user's test would: a new
// session on the phone (the driver installs its helper and server APKs, starts the
// server with am instrument and captures logcat), a find, a click, the page source after
// it, Back, typing into a search field, the session's logcat, and the session's end. Prints one JSON object of what each
// operation returned; a failing operation makes the script exit non-zero with its name.
// Env: APPIUM_PORT, SERIAL, ADB_PORT.
'use strict';
process.env.WDIO_LOG_LEVEL = 'silent'; // the result is the only line on stdout
const WebDriver = require('webdriver');

const out = {};

async function step(name, fn) {
  try {
    out[name] = await fn();
  } catch (err) {
    console.log(JSON.stringify(out));
    console.error(`appium ${name}: ${err && err.stack || err}`);
    process.exit(1);
  }
  return out[name];
}

(async () => {
  const client = await step('session', async () => WebDriver.newSession({
    protocol: 'http', hostname: '127.0.0.1', port: Number(process.env.APPIUM_PORT), path: '/',
    logLevel: 'silent', connectionRetryCount: 0, connectionRetryTimeout: 240000,
    capabilities: {
      platformName: 'Android',
      'appium:automationName': 'UiAutomator2',
      'appium:udid': process.env.SERIAL,
      'appium:adbPort': Number(process.env.ADB_PORT),
      'appium:newCommandTimeout': 120,
    },
  }));
  out.session = { id: client.sessionId, platformName: client.capabilities.platformName, deviceUDID: client.capabilities.deviceUDID };
  const el = await step('find', async () => client.findElement('xpath', "//*[@text='Settings']"));
  const id = el['element-6066-11e4-a52e-4f735466cecf'];
  await step('text', async () => client.getElementText(id));
  await step('click', async () => { await client.elementClick(id); return true; });
  await step('after', async () => (await client.getPageSource()).includes('package="com.android.settings"'));
  await step('back', async () => { await client.back(); return (await client.getPageSource()).includes('package="com.android.launcher3"'); });
  const contacts = await step('contacts', async () => client.findElement('xpath', "//*[@text='Contacts']"));
  await client.elementClick(contacts['element-6066-11e4-a52e-4f735466cecf']);
  const field = await step('field', async () => client.findElement('id', 'com.android.contacts:id/search_view'));
  const fid = field['element-6066-11e4-a52e-4f735466cecf'];
  await step('fieldClass', async () => client.getElementAttribute(fid, 'class'));
  await step('typed', async () => {
    await client.elementSendKeys(fid, 'Ali');
    const again = await client.findElement('id', 'com.android.contacts:id/search_view');
    return client.getElementText(again['element-6066-11e4-a52e-4f735466cecf']);
  });
  await step('logcat', async () => {
    const entries = await client.getLogs('logcat');
    return entries.map((e) => e.message).filter((m) => m.includes('ActivityTaskManager'));
  });
  await step('delete', async () => { await client.deleteSession(); return true; });
  console.log(JSON.stringify(out));
})();
