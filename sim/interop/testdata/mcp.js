// Drives one virtual phone with @mobilenext/mobile-mcp, an MCP server spawned over stdio
// and talked to with the MCP SDK's client, and prints one JSON object of what each tool
// returned. ROBOT=adb runs mobile-mcp's adb robot (MOBILEMCP_LEGACY_ROBOT=1), ROBOT=mobilecli
// its default robot (the mobilecli binary). The server's adb reaches the test's private adb
// server through ANDROID_ADB_SERVER_PORT. A tool that fails unexpectedly ends the script
// non-zero with the tool named; list-apps on the mobilecli robot is recorded as it comes,
// error or not (mobilecli runs a pushed helper there, which a virtual phone cannot start).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const serial = process.env.SERIAL;
const robot = process.env.ROBOT;
const server = require.resolve('@mobilenext/mobile-mcp/lib/index.js');
const out = { robot };

function text(res) {
  return (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

// elements reads the json list of mobile_list_elements_on_screen ("Found these elements
// on screen: [...]").
function elements(res) {
  const t = text(res);
  const i = t.indexOf('[');
  if (i < 0) throw new Error(`no element list in: ${t.slice(0, 200)}`);
  return JSON.parse(t.slice(i));
}

(async () => {
  const env = { ...process.env, MOBILEMCP_DISABLE_TELEMETRY: '1' };
  if (robot === 'adb') {
    env.MOBILEMCP_LEGACY_ROBOT = '1';
  } else {
    delete env.MOBILEMCP_LEGACY_ROBOT;
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [server], env, stderr: 'pipe' });
  let serverLog = '';
  const client = new Client({ name: 'fairy-interop', version: '1.0.0' });
  await client.connect(transport);
  if (transport.stderr) transport.stderr.on('data', (d) => { serverLog += d; });

  const call = async (name, args, { mayFail = false } = {}) => {
    const res = await client.callTool({ name, arguments: { device: serial, ...args } }, undefined, { timeout: 60000 });
    if (res.isError && !mayFail) {
      console.log(JSON.stringify(out));
      console.error(`mobile-mcp (${robot} robot) ${name}: ${text(res)}\nserver log:\n${serverLog.slice(-2000)}`);
      process.exit(1);
    }
    return res;
  };

  const devices = await client.callTool({ name: 'mobile_list_available_devices', arguments: {} });
  out.devices = text(devices);
  const apps = await call('mobile_list_apps', {}, { mayFail: robot === 'mobilecli' });
  out.listApps = { error: !!apps.isError, text: text(apps) };
  out.orientation = text(await call('mobile_get_orientation', {}));
  const shot = path.join(os.tmpdir(), `mcp-${robot}-${process.pid}.png`);
  out.saveScreenshot = text(await call('mobile_save_screenshot', { saveTo: shot }));
  const png = fs.readFileSync(shot);
  out.screenshotFile = { png: png.subarray(1, 4).toString(), width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  fs.unlinkSync(shot);
  const taken = await call('mobile_take_screenshot', {});
  const img = (taken.content || []).find((c) => c.type === 'image');
  out.takeScreenshot = img ? { mimeType: img.mimeType, bytes: Buffer.from(img.data, 'base64').length } : null;

  out.launch = text(await call('mobile_launch_app', { packageName: 'com.android.contacts' }));
  // The adb robot has no foreground-app tool ("not supported in legacy robot mode").
  if (robot !== 'adb') out.foregroundAfterLaunch = text(await call('mobile_get_foreground_app', {}));
  const listed = elements(await call('mobile_list_elements_on_screen', { format: 'json' }));
  out.elements = listed.map((e) => e.text || e.label || e.identifier || '').filter(Boolean);
  const search = listed.find((e) => e.text === 'Search contacts' || e.label === 'Search contacts');
  if (!search) {
    console.log(JSON.stringify(out));
    console.error(`mobile-mcp (${robot} robot) list elements: no "Search contacts" element`);
    process.exit(1);
  }
  if (search.ref) {
    out.tap = text(await call('mobile_click_on_screen_at_coordinates', { ref: search.ref }));
  } else {
    const c = search.coordinates;
    out.tap = text(await call('mobile_click_on_screen_at_coordinates', { x: c.x + Math.floor(c.width / 2), y: c.y + Math.floor(c.height / 2) }));
  }
  out.type = text(await call('mobile_type_keys', { text: 'bob', submit: false }));
  const after = elements(await call('mobile_list_elements_on_screen', { format: 'json' }));
  out.elementsAfterTyping = after.map((e) => e.text || e.label || '').filter(Boolean);
  out.terminate = text(await call('mobile_terminate_app', { packageName: 'com.android.contacts' }));
  if (robot !== 'adb') out.foregroundAfterTerminate = text(await call('mobile_get_foreground_app', {}));
  await client.close();
  console.log(JSON.stringify(out));
})().catch((err) => {
  console.log(JSON.stringify(out));
  console.error(`mobile-mcp (${robot} robot): ${err && err.stack || err}`);
  process.exit(1);
});
