package main

// source is one repository the generator reads: the flag that names its git directory,
// its licence, and whether its strings are BlueWallet's loc/*.json.
type source struct {
	repo, flag, licence string
	json                bool
	mediawiki           bool     // a MediaWiki extension's i18n/*.json
	learn               []string // the topics learnVerbs learns from it; nil: all
}

// sources are the repositories, in the order their provenance is written. The corpus is
// made from thunderbird and wikipedia only (corpusKeys); the AOSP apps (Mms, Contacts,
// Dialer, Calendar, Email, Browser), Mastodon, Tusky, Element and Nextcloud only teach the
// vocabulary, so no corpus label comes from them.
var sources = []source{
	{repo: "thunderbird/thunderbird-android", flag: "thunderbird", licence: "Apache-2.0"},
	{repo: "wikimedia/apps-android-wikipedia", flag: "wikipedia", licence: "Apache-2.0"},
	{repo: "GrapheneOS/platform_packages_apps_Messaging", flag: "messaging", licence: "Apache-2.0"},
	{repo: "GrapheneOS/platform_packages_apps_Nfc", flag: "nfc", licence: "Apache-2.0"},
	{repo: "BlueWallet/BlueWallet", flag: "bluewallet", licence: "MIT", json: true},
	{repo: "AntennaPod/AntennaPod", flag: "antennapod", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "duckduckgo/Android", flag: "duckduckgo", licence: "Apache-2.0"},
	{repo: "woocommerce/woocommerce-android", flag: "woocommerce", licence: "GPL-2.0 (translated words taken as facts)"},
	{repo: "aosp-mirror/platform_packages_apps_mms", flag: "mms", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_contacts", flag: "contacts", licence: "Apache-2.0"},
	{repo: "GrapheneOS/platform_packages_apps_Dialer", flag: "dialer", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_calendar", flag: "calendar", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_email", flag: "email", licence: "Apache-2.0"},
	{repo: "mastodon/mastodon-android", flag: "mastodon", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "tuskyapp/Tusky", flag: "tusky", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "element-hq/element-android", flag: "element", licence: "Apache-2.0"},
	{repo: "aosp-mirror/platform_packages_apps_browser", flag: "browser", licence: "Apache-2.0"},
	{repo: "nextcloud/android", flag: "nextcloud", licence: "GPL-2.0 (translated words taken as facts)"},
	// Commons sends thanks to an uploader; its other strings are of uploading and maps.
	{repo: "commons-app/apps-android-commons", flag: "commons", licence: "Apache-2.0", learn: []string{"thank"}},
	{repo: "FossifyOrg/Messages", flag: "fossifymessages", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "TeamNewPipe/NewPipe", flag: "newpipe", licence: "GPL-3.0 (translated words taken as facts)"},
	{repo: "FossifyOrg/commons", flag: "fossifycommons", licence: "GPL-3.0 (translated words taken as facts)"},
	// FairEmail and Delta Chat teach the verbs of deleting, emptying, discarding, clearing
	// and sending; their forwarding is learned only from their Forward strings themselves
	// (vocabulary): the words around a forward ("Faire suivre", "להעביר אל") are as often
	// those of following or moving.
	{repo: "M66B/FairEmail", flag: "fairemail", licence: "GPL-3.0 (translated words taken as facts)", learn: mailVerbs},
	{repo: "deltachat/deltachat-android", flag: "deltachat", licence: "GPL-3.0 (translated words taken as facts)", learn: mailVerbs},
	// MediaWiki's Thanks extension sends an editor public thanks, in over four hundred
	// languages (translatewiki.net). Only its Send thanks and Thank strings are taken
	// (vocabulary), no learned word: its fifty strings are nearly all of thanking, so the
	// words around them ("Do you want to publicly send thanks?": möchten, wilt, julkisesti)
	// recur there and nowhere else, and would be learned as sending.
	{repo: "wikimedia/mediawiki-extensions-Thanks", flag: "thanks", licence: "MIT", mediawiki: true, learn: []string{}},
	// Firefox for Android, Focus and their components: deleting, removing and clearing a
	// person's browsing data; its Forward and Back are a page's, and teach which words of
	// a language are directions (directionKeys). Not its Erase nor its Send: nearly every
	// one is "Erase browsing history", "Erase and open" or "Send tab to device", whose
	// other words (history, and open, to device) would be learned as the verb.
	{repo: "mozilla-mobile/firefox-android", flag: "firefox", licence: "MPL-2.0", learn: []string{"delete", "remove", "empty", "discard", "clear"}},
	// QKSMS, an SMS app: sending, forwarding and deleting messages and conversations.
	{repo: "moezbhatti/qksms", flag: "qksms", licence: "GPL-3.0 (translated words taken as facts)", learn: mailVerbs},
	// Bitcoin Wallet: its Send sends money, and "Pay to" names a transfer's page; nothing
	// learned (its strings' other words are of coins and addresses).
	{repo: "bitcoin-wallet/bitcoin-wallet", flag: "bitcoinwallet", licence: "GPL-3.0 (translated words taken as facts)", learn: []string{}},
	// Two MediaWiki extensions translated on translatewiki.net into some two hundred
	// languages, many of them spoken by few (Chechen, Sakha, Pashto, Yiddish, Marathi):
	// Nuke's Delete and MassMessage's Send only (vocabulary), nothing learned — their
	// other strings are of wiki pages, users and lists.
	{repo: "wikimedia/mediawiki-extensions-Nuke", flag: "nuke", licence: "GPL-2.0-or-later (translated words taken as facts)", mediawiki: true, learn: []string{}},
	{repo: "wikimedia/mediawiki-extensions-MassMessage", flag: "massmessage", licence: "GPL-2.0-or-later (translated words taken as facts)", mediawiki: true, learn: []string{}},
}

// mailVerbs are the topics learned from the e-mail and chat apps added last.
var mailVerbs = []string{"delete", "remove", "erase", "empty", "discard", "clear", "send"}
