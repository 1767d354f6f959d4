package sim

import (
	"fmt"
	"slices"
	"strings"
)

// dumpsys: the window, activity, input_method and package records clients parse.

func cmdDumpsys(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.printf("Currently running services:\n  activity\n  input_method\n  package\n  window\n")
		return 0
	}
	t, inst := p.frontActivity()
	switch c.args[1] {
	case "window":
		win := fmt.Sprintf("Window{%s u0 %s/%s}", hash7(inst.id+77), inst.app.spec.Package,
			inst.app.spec.component(inst.spec.Activity))
		c.printf("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
		c.printf("  Window #0 Window{%s u0 StatusBar}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{1a2b3c4 "+
			"1234:u0a10042} mClient=android.os.BinderProxy@5d6e7f8\n    mOwnerUid=10042 showForAllUsers=true "+
			"package=com.android.systemui appop=NONE\n", hash7(1))
		n := 1
		if p.kbShown && p.top().focus != "" {
			c.printf("  Window #%d Window{%s u0 InputMethod}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{2b3c4d5 "+
				"2345:u0a10099} mClient=android.os.BinderProxy@6e7f809\n    mOwnerUid=10099 showForAllUsers=true package=%s "+
				"appop=NONE\n", n, hash7(2), strings.SplitN(p.currentIME, "/", 2)[0])
			n++
		}
		c.printf("  Window #%d %s:\n    mDisplayId=0 rootTaskId=%d mSession=Session{3c4d5e6 %d:u0a%d} "+
			"mClient=android.os.BinderProxy@7f8091a\n    mOwnerUid=%d showForAllUsers=false package=%s appop=NONE\n"+
			"    mAttrs={(0,0)(fillxfill) sim={adjust=resize forwardNavigation} ty=BASE_APPLICATION wanim=0x10302fd\n"+
			"      fl=LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED "+
			"DRAWS_SYSTEM_BAR_BACKGROUNDS%s}\n "+
			"   Requested w=%d h=%d mLayoutSeq=%d\n    mActivityRecord=%s\n",
			n, win, t.id, 4000+t.id, 100+t.id, 10100+t.id, inst.app.spec.Package, map[bool]string{true: " SECURE",
				false: ""}[inst.spec.Secure], p.cfg.Width, p.cfg.Height, p.version%1000, activityRecord(t, inst))
		c.printf("\nWINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 rootTasks=%d\n"+
			"    init=%dx%d %ddpi cur=%dx%d app=%dx%d rng=%dx%d-%dx%d\n",
			len(p.tasks), p.cfg.Width, p.cfg.Height, p.cfg.Density, p.cfg.Width, p.cfg.Height, p.cfg.Width,
			p.cfg.Height-p.metrics().nb, p.cfg.Width, p.cfg.Width, p.cfg.Height, p.cfg.Height)
		c.printf("  mCurrentFocus=%s\n  mFocusedApp=%s\n", win, activityRecord(t, inst))
		c.printf("  mInputMethodWindow=Window{%s u0 InputMethod}\n", hash7(2))
		return 0
	case "activity":
		if len(c.args) > 2 && (c.args[2] == "services" || c.args[2] == "s") {
			filter := ""
			if len(c.args) > 3 {
				filter = c.args[3]
			}
			p.dumpsysServices(c, filter)
			return 0
		}
		if len(c.args) > 2 && c.args[2] != "activities" && c.args[2] != "a" && c.args[2] != "top" && c.args[2] != "recents" {
			c.printf("Unknown command: %s\nBad activity command, or no activities match: %s\nUse -h for help.\n",
				c.args[2], c.args[2])
			return 0
		}
		c.printf("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n")
		for i := len(p.tasks) - 1; i >= 0; i-- {
			tk := p.tasks[i]
			a := p.apps[tk.pkg]
			visible := i == len(p.tasks)-1
			c.printf("  * Task{%s #%d type=%s A=%d:%s U=0 visible=%t visibleRequested=%t mode=fullscreen "+
				"translucent=false sz=%d}\n",
				hash7(tk.id+500), tk.id, map[bool]string{true: "home", false: "standard"}[tk.pkg == p.home], 10100+tk.id, tk.pkg,
				visible, visible, len(tk.stack))
			var acts []*screenInst
			for _, si := range tk.stack {
				if !si.spec.Dialog {
					acts = append(acts, si)
				}
			}
			if visible && len(acts) > 0 {
				c.printf("    mResumedActivity: %s\n", activityRecord(tk, acts[len(acts)-1]))
			}
			for j := len(acts) - 1; j >= 0; j-- {
				si := acts[j]
				c.printf("    * Hist  #%d: %s\n      packageName=%s processName=%s\n"+
					"      launchedFromUid=10081 launchedFromPackage=com.android.launcher3 launchedFromFeature=null userId=0\n"+
					"      Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 "+
					"pkg=%s cmp=%s }\n",
					j, activityRecord(tk, si), a.spec.Package, a.spec.Package, a.spec.Package, a.spec.shortComponent(si.spec.Activity))
			}
		}
		c.printf("\n  ResumedActivity: %s\n", activityRecord(t, inst))
		c.printf("  mFocusedApp=%s\n", activityRecord(t, inst))
		return 0
	case "input_method":
		shown := p.kbShown && p.top().focus != ""
		c.printf("Current Input Method Manager state:\n  Input Methods: mMethodMapUpdateCount=1\n")
		for _, id := range p.imes {
			c.printf("  InputMethod #%d:\n    mId=%s mSettingsActivityName=null mIsVrOnly=false "+
				"mSupportsSwitchingToNextInputMethod=false\n", slices.Index(p.imes, id), id)
		}
		c.printf("  mCurMethodId=%s\n  mCurrentSubtype=null\n  mCurSeq=%d mCurClient=ClientState{%s uid=%d pid=%d "+
			"displayId=0}\n  mCurFocusedWindow=Window{%s u0 %s/%s}\n  mShowRequested=%t mShowExplicitlyRequested=false "+
			"mShowForced=false mInputShown=%t\n  mInFullscreenMode=false\n  mSystemReady=true mInteractive=true\n",
			p.currentIME, p.version%100+1, hash7(inst.id+9), 10100+t.id, 4000+t.id, hash7(inst.id+77), inst.app.spec.Package,
			inst.app.spec.component(inst.spec.Activity), shown, shown)
		return 0
	case "power":
		c.printf("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  Settings power_manager_constants:\n"+
			"    no_cached_wake_locks=true\n  mDirty=0x0\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n"+
			"  mIsPowered=true\n  mPlugType=1\n  mBatteryLevel=100\n  mDockState=0\n  mStayOn=false\n"+
			"  mProximityPositive=false\n  mBootCompleted=true\n  mSystemReady=true\n"+
			"  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker=true\n"+
			"  mLastWakeTime=%d (%d ms ago)\n\nDisplay Power: state=ON\n", 1000, 1000)
		return 0
	case "deviceidle":
		return p.dumpsysDeviceIdle(c)
	case "package":
		if len(c.args) > 2 {
			a := p.apps[c.args[2]]
			if a == nil && p.dumpsysInstalled(c, c.args[2]) {
				return 0
			}
			if a == nil {
				c.printf("Unable to find package: %s\n", c.args[2])
				return 0
			}
			s := a.spec
			c.printf("Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:\n"+
				"        %s %s filter %s\n          Action: \"android.intent.action.MAIN\"\n"+
				"          Category: \"android.intent.category.LAUNCHER\"\n\nPackages:\n  Package [%s] (%s):\n    userId=%d\n"+
				"    versionCode=1 minSdk=24 targetSdk=34\n    versionName=%s\n    dataDir=/data/user/0/%s\n",
				hash7(int(crc(s.Package))), s.shortComponent(s.Activity), hash7(int(crc(s.Package)+1)), s.Package,
				hash7(int(crc(s.Package)+2)), 10100+int(crc(s.Package)%400), defaultStr(s.Version, "1.0"), s.Package)
			return 0
		}
	}
	return 0
}

func hash7(n int) string { return fmt.Sprintf("%07x", (uint32(n)*2654435761)>>4) }

// activityRecord renders an ActivityRecord as Android 12+ prints it.
func activityRecord(t *task, inst *screenInst) string {
	return fmt.Sprintf("ActivityRecord{%s u0 %s} t%d}", hash7(inst.id), inst.app.spec.shortComponent(inst.spec.Activity), t.id)
}

func defaultStr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
