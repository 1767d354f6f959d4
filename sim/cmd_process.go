package sim

// The process commands: ps, and app_process, which runs pushed helpers on a real phone and
// cannot on a virtual one.

// cmdPs lists init, system_server, one process per app with a task and Appium's helpers
// while they run, as toybox ps -A.
func cmdPs(p *Phone, c *cmdIO) int {
	c.printf("USER           PID  PPID        VSZ    RSS WCHAN            ADDR S NAME                       \n")
	c.printf("root             1     0   10929016  12108 do_epoll_wait       0 S init\n")
	c.printf("system         612   356   15285112 236084 do_epoll_wait       0 S system_server\n")
	c.printf("u0_a108        801   356   13912340 168240 do_epoll_wait       0 S %s\n", systemUI)
	seen := map[string]bool{systemUI: true}
	pid := 1200
	for _, t := range p.tasks {
		if seen[t.pkg] {
			continue
		}
		seen[t.pkg] = true
		pid += 37
		c.printf("u0_a%-3d       %5d   356   13854812 112384 do_epoll_wait       0 S %s\n", 100+pid%90, pid, t.pkg)
	}
	// The processes of Appium's helpers while they run: the UiAutomator2 server's
	// instrumentation runs in its target package's process.
	if p.uia2.running {
		c.printf("u0_a%-3d       %5d   356   13902116 141560 do_epoll_wait       0 S %s\n",
			100+int(crc(uiServerPackage)%90), 3100+int(crc(uiServerPackage)%700), uiServerPackage)
	}
	if p.pkgs.helperRunning {
		c.printf("u0_a%-3d       %5d   356   13852400  98312 do_epoll_wait       0 S %s\n",
			100+int(crc(settingsHelperPackage)%90), p.helperPid(), settingsHelperPackage)
	}
	c.printf("shell         %5d  2101   10793900   3840 0                   0 R ps\n", 4000+int(p.version%1000))
	return 0
}

// cmdAppProcess stands for app_process, which runs a pushed dex or jar (CLASSPATH=… app_process
// / CLASS). The virtual phone runs no Dalvik code: it answers as a device on which the
// helper cannot start — the runtime aborts and the shell prints "Aborted" with status 134
// (SIGABRT), as in Genymobile/scrcpy#268 and #5178 (logcat: "ERROR: could not find class").
// The command ends at once: a client waiting for the helper's socket gets a clean failure,
// never a hang.
func cmdAppProcess(p *Phone, c *cmdIO) int {
	if len(c.args) < 3 {
		c.errorf("Usage: app_process [java-options] cmd-dir start-class-name [options]\n")
		return 1
	}
	c.errorf("Aborted \n")
	return 134
}
