package main

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// role is what a string is for the guard.
type role struct {
	key      string
	category string // payment, send, …; "confirm", "dismiss", "page:payment", "except:send", …
}

// vocabulary keys, by repository.
var vocabulary = map[string][]role{
	"thunderbird/thunderbird-android": {
		{"send_action", "send"}, {"forward_action", "send"},
		{"delete_action", "delete"}, {"empty_trash_action", "delete"}, {"remove_account_action", "delete"}, {"discard_action", "delete"},
		{"webview_contextmenu_phone_call_action", "call"},
		{"funding_googleplay_contribution_footer_payment_button", "payment"},
		{"onboarding_permissions_allow_button", "permission"},
		{"okay_action", "confirm"}, {"dialog_confirm_delete_confirm_button", "confirm"},
		{"cancel_action", "dismiss"}, {"cancel_action", "cancel"}, {"funding_googleplay_contribution_reminder_negative_button", "dismiss"},
		{"dialog_confirm_delete_title", "page:delete"},
		// The state of a view, not data: removing a star or clearing a search deletes nothing.
		{"star_button_description", "object"}, {"search_action", "object"},
		// Names that hold a sensitive word without doing it (Người gửi, 送信者: sender).
		{"font_size_message_list_sender", "except:send"}, {"special_mailbox_name_sent", "except:send"},
		{"special_mailbox_name_outbox", "except:send"},
	},
	"BlueWallet/BlueWallet": {
		{"lnd.payButton", "payment"}, {"bip47.pay_this_contact", "payment"}, {"send.confirm_sendNow", "transfer"},
		{"lnd.payment", "page:payment"}, {"send.details_recipients_title", "page:transfer"}, {"send.create_fee", "page:transfer"},
	},
	"GrapheneOS/platform_packages_apps_Nfc": {
		{"pay_with", "payment"}, {"pay_with", "page:payment"},
	},
	"GrapheneOS/platform_packages_apps_Messaging": {
		{"action_send", "send"}, {"message_context_menu_forward_message", "send"}, {"action_delete", "delete"},
		{"delete_conversation_decline_button", "dismiss"},
	},
	"AntennaPod/AntennaPod": {
		{"delete_label", "delete"}, {"subscribe_label", "subscription"},
	},
	"woocommerce/woocommerce-android": {
		{"order_refunds_refund", "transfer"}, // a refund pays a customer back
		{"payment", "page:payment"}, {"order_creation_payment_header", "page:payment"},
	},
	// DuckDuckGo's browser contributes only the verb and data forms learned from its strings.
	"duckduckgo/Android": {},
	// Publishing a post sends it to everyone who follows the account.
	"mastodon/mastodon-android":  {{"publish", "send"}, {"discard", "delete"}, {"delete", "delete"}, {"clear", "clear"}},
	"tuskyapp/Tusky":             {{"action_delete", "delete"}, {"action_discard", "delete"}},
	"element-hq/element-android": {{"action_send", "send"}, {"action_delete", "delete"}, {"action_remove", "delete"}, {"direct_chats_header", "data"}},
	// Clear, and the names of a person's data, for the Clear-with-data rule.
	"aosp-mirror/platform_packages_apps_mms":     {{"confirm_clear_search_title", "clear"}},
	"aosp-mirror/platform_packages_apps_browser": {{"clear", "clear"}},
	// The strings every Fossify app shares (gallery, files, contacts, …).
	"FossifyOrg/commons": {{"delete", "delete"}, {"discard", "delete"}, {"empty_recycle_bin", "delete"}},
	"nextcloud/android":  {{"common_delete", "delete"}, {"common_send", "send"}, {"clear", "clear"}},
	// Two more e-mail and chat apps: their translators word send, forward, discard and
	// clearing a chat otherwise than Thunderbird's.
	// (Not its Forward: some of its translators wrote a browser's Forward, Korean 앞으로,
	// ahead.)
	"M66B/FairEmail": {{"title_send", "send"}, {"title_raw_send", "send"}, {"title_delete", "delete"},
		{"title_discard", "delete"}, {"title_empty_trash", "delete"},
		// The names of what a person writes and keeps, word for word.
		{"title_raw_send_message", "data"}, {"title_raw_send_message", "compose"}, {"title_legend_section_messages", "data"},
		{"title_legend_section_messages", "compose"}, {"title_folder_drafts", "data"}, {"title_folder_drafts", "compose"},
		// Names that hold a sensitive word without doing it (Korean 발신, From, is also its
		// Send).
		{"title_sort_on_sender", "except:send"}, {"title_from", "except:send"}, {"title_folder_sent", "except:send"},
		{"title_folder_outbox", "except:send"}, {"title_filter_deleted", "except:delete"}},
	"deltachat/deltachat-android": {{"menu_send", "send"}, {"forward", "send"}, {"menu_forward", "send"}, {"delete", "delete"},
		{"clear_chat", "delete"}, {"donate", "payment"}, {"cancel", "cancel"},
		{"messages", "data"}, {"messages", "compose"}, {"chat_input_placeholder", "data"}, {"chat_input_placeholder", "compose"},
		{"draft", "data"}, {"draft", "compose"}, {"chat", "data"}},
	"aosp-mirror/platform_packages_apps_contacts": {{"contactsList", "data"}},
	// The Commons app, translated on translatewiki.net: its Delete of an upload and of the
	// pictures picked in its image selector.
	"commons-app/apps-android-commons":         {{"delete", "delete"}, {"custom_selector_delete", "delete"}},
	"GrapheneOS/platform_packages_apps_Dialer": {{"tab_voicemail", "data"}},
	// "Send thanks" and the Thank button; a Thank that is also the language's word of thanks
	// itself is left out (thankIsGratitude).
	thanksRepo:                       {{"thanks-submit", "send"}, {"thanks", "send"}, {"thanks-button-thank", "send"}},
	"mozilla-mobile/firefox-android": {{"preferences_delete_browsing_data", "delete"}, {"browser_toolbar_erase", "delete"}},
	"moezbhatti/qksms": {{"compose_menu_forward", "send"}, {"compose_send_cd", "send"}, {"button_delete", "delete"},
		{"info_delete", "delete"}, {"button_cancel", "cancel"}},
	// Translatewiki's smallest languages: Nuke's Delete (of the pages selected) and
	// MassMessage's Send (of a message to many users).
	"wikimedia/mediawiki-extensions-Nuke":        {{"nuke-submit-delete", "delete"}},
	"wikimedia/mediawiki-extensions-MassMessage": {{"massmessage-form-submit", "send"}},
	"bitcoin-wallet/bitcoin-wallet": {{"send_coins_fragment_button_send", "transfer"}, {"send_coins_activity_title", "transfer"},
		{"send_coins_fragment_receiving_address_label", "page:transfer"}},
	"wikimedia/apps-android-wikipedia": {
		{"nav_item_donate", "payment"}, {"donation_reminders_prompt_positive_button", "payment"},
		{"talk_list_item_overflow_subscribe", "subscription"},
		{"edit_done", "send"},
		{"onboarding_continue", "confirm"},
		{"watchlist_page_deleted", "except:delete"},
		// Harmless phrases that hold a send word in some languages (Vietnamese đăng nhập: log in).
		{"menu_login", "except:send"},
	},
}

// thanksRepo is MediaWiki's Thanks extension; thankKeys are its Send thanks and its Thank
// button: in some languages a verb ("Захвали се", "Lähetä kiitokset"), in others the
// word of thanks itself (感謝, a noun a "Thank you" label holds too), which
// thankIsGratitude leaves out.
const thanksRepo = "wikimedia/mediawiki-extensions-Thanks"

var thankKeys = []string{"thanks-submit", "thanks", "thanks-button-thank"}

// thanksSaid are English strings that only say thanks ("Thanks", "No thanks", "Thank
// you!", "Thanks log", "Thanked", "Thanks received"); not "thank", the verb the button
// is, nor a sentence with other words ("Publicly send 'Thanks'").
var thanksSaid = regexp.MustCompile(`^(?i)\W*(no,?\s+)?(thanks|thank you|thanked)(\s+(log|received|very much|so much))?\W*$`)

// thankIsGratitude reports whether v, a translation in locale loc of the Thanks
// extension's Thank or Send thanks, says thanks rather than thanking: it is inside, or
// each of its words is a word of, the translations there of the
// strings of any catalog that only say thanks (thanksSaid: Romanian mulțumesc; "Lähetä
// kiitokset" has a verb beside the thanks); or it is one word that the guard would read in its
// inflected forms (minStemWord letters or more) and a word of such a string in any locale
// is one of them (Dutch bedanken, to thank, and bedankt, thanks; Greek ευχαριστία and
// ευχαριστώ). A sentence that reports someone thanking ("when someone thanks you") has
// the verb.
func thankIsGratitude(cats []*catalog, loc, v string) bool {
	v = strings.ToLower(v)
	long := slices.Collect(maps.Keys(grams(v)))
	stem := ""
	if rs := []rune(v); len(rs) >= minStemWord && len(long) == 1 && long[0] == v {
		stem = string(rs[:len(rs)-2])
	}
	thanked := map[string]bool{} // the words of v that a string saying thanks holds
	for _, c := range cats {
		for k, tr := range c.strings {
			en := tr["en"]
			if c.repo == thanksRepo && slices.Contains(thankKeys, k) || !thanksSaid.MatchString(en) {
				continue
			}
			if said := strings.ToLower(tr[loc]); said != "" {
				if strings.Contains(said, v) {
					return true
				}
				for _, g := range long {
					if grams(said)[g] {
						thanked[g] = true
					}
				}
			}
			if stem == "" {
				continue
			}
			for l, said := range tr {
				if strings.HasPrefix(l, "en") {
					continue
				}
				for g := range grams(strings.ToLower(said)) {
					if strings.HasPrefix(g, stem) && utf8.RuneCountInString(g)-utf8.RuneCountInString(stem) <= 4 {
						return true
					}
				}
			}
		}
	}
	return len(long) > 0 && len(thanked) == len(long)
}

// minStemWord is the guard's: the fewest letters of a word whose inflected forms it reads
// (the word less two letters and up to four more).
const minStemWord = 7

// notForwarding reports whether the catalog uses w in locale loc, as a word, in more of
// its strings whose English is not about forwarding than of those about it.
func notForwarding(c *catalog, loc, w string) bool {
	about, other := 0, 0
	for _, tr := range c.strings {
		if tr[loc] == "" || tr["en"] == "" || !grams(strings.ToLower(tr[loc]))[w] {
			continue
		}
		if strings.Contains(strings.ToLower(tr["en"]), "forward") {
			about++
		} else {
			other++
		}
	}
	return other > about
}

// harmlessKeys are strings of actions that need no consent (Move, Archive, Copy, Reply,
// Next, Back, Done, Mark as read, Cancel, Edit, Add, Save, Skip, Later, Log out): a
// generated word that is also one of their translations in the same locale is ambiguous
// there (Hebrew העבר is Forward
// and Move, Indonesian batalkan is Discard and Cancel) and left out; so is a learned
// single word that is one of the words of such a translation (Irish cuir, learned from
// "Cuir teachtaireacht" for Send, is also the cuir of "Cuir in eagar", Edit).
var harmlessKeys = map[string][]string{
	"thunderbird/thunderbird-android": {"move_action", "archive_action", "copy_action", "reply_action", "account_common_button_next",
		"account_common_button_back", "done_action", "mark_as_read_action", "cancel_action", "manage_identities_edit_action",
		"edit_identity_save", "onboarding_permissions_skip_button", "settings_import_later_button"},
	// Log out and Skip (Malay keluar, out, of Log keluar, was learned from Alih keluar,
	// Remove).
	"nextcloud/android":                           {"drawer_logout", "common_skip"},
	"aosp-mirror/platform_packages_apps_contacts": {"menu_editContact", "menu_add_contacts", "menu_save"},
	"M66B/FairEmail":                              {"title_move", "title_archive", "title_copy", "title_reply", "title_save", "title_next", "title_add"},
	"deltachat/deltachat-android":                 {"cancel", "save", "next"}, // its Archive is "Send to archive" in some languages
}

// directionKeys are a browser's Forward and Back, which go from page to page: a send word
// that is one of their translations (Finnish eteenpäin, Delta Chat's Forward, is the
// browser's too; Hindi आगे, QKSMS's Forward, is ahead) is a direction, not a verb, unless
// two apps or more translate their Forward so and none of them uses it more often in
// strings not about forwarding ("Tästä eteenpäin", from now on) than in those about it.
var directionKeys = map[string][]string{"mozilla-mobile/firefox-android": {"browser_menu_forward", "browser_menu_back"},
	"wikimedia/apps-android-wikipedia": {"nav_item_forward", "nav_item_back"}}

// browserKeys are a browser's Reload and Stop: with them (or an address bar) on a page,
// the page is a browser's, and its Forward and Back (directionKeys) go from page to page.
var browserKeys = map[string][]string{"mozilla-mobile/firefox-android": {"browser_menu_refresh", "browser_menu_stop"}}

// corpusKeys are held-out strings: sensitive ones name their category, harmless ones "".
var corpusKeys = map[string][]role{
	"thunderbird/thunderbird-android": {
		{"notification_action_delete_all", "delete"}, {"forward_as_attachment_action", "send"}, {"send_messages_action", "send"},
		{"dialog_confirm_clear_local_folder_action", "delete"}, {"webview_contextmenu_email_send_action", "send"},
		{"sent_folder_not_found_dialog_send_and_delete_action", "send"}, {"global_settings_confirm_menu_discard", "delete"},
		{"ac_transfer_button_send", "send"},
		{"sort_by_sender", ""}, {"swipe_action_archive", ""}, {"reader_action_reply", ""}, {"navigation_drawer_dropdown_action_settings", ""},
		{"compose_title_compose", ""}, {"swipe_action_add_star", ""}, {"swipe_action_remove_star", ""}, {"notification_action_mark_all_as_read", ""},
		{"account_settings_search_action", ""}, {"swipe_action_move", ""},
	},
	"wikimedia/apps-android-wikipedia": {
		{"reading_list_menu_delete", "delete"}, {"delete_selected_items", "delete"}, {"thank_dialog_positive_button_text", "send"},
		{"donate_gpay_dialog_pay_button", "payment"}, {"donation_reminders_gpay_text", "payment"}, {"menu_save_changes", "send"},
		{"history_list_title", ""}, {"menu_page_view_edit_history", ""}, {"menu_page_view_talk", ""}, {"menu_edit_article", ""},
		{"settings_item_preferences", ""}, {"search_hint", ""}, {"map_view_link_text", ""}, {"nav_item_login", ""},
	},
}

// corpusScreens name the screens the corpus labels are put on, one per repository.
var corpusScreens = map[string]string{"thunderbird/thunderbird-android": "compose_title_compose", "wikimedia/apps-android-wikipedia": "history_list_title"}
