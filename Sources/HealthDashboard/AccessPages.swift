import HealthCore

/// The pages around the server's dashboard: sign-in, and consent — the web analogue of
/// HealthKit's authorization sheet (seed 002 §1–3): what each kind of data is and why it is
/// used, asked before any of it is shown, and allowed or not one kind at a time.
///
/// Every form carries the session's CSRF token in a hidden `csrf` field.
public enum AccessPages {
    /// The sign-in form: the person's API token, posted to `action`.
    public static func signIn(action: String = "/login", csrf: String, error: String? = nil) -> String {
        let message = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        return document(
            title: "Sign in",
            body: """
                <section class="panel" aria-labelledby="signin-h"><h2 id="signin-h">Sign in to your health dashboard</h2>\
                <p>Paste the API token you were given (<code>healthpipe users add</code> prints it once). \
                It is checked and forgotten: the browser keeps only a session cookie, which ends when you sign out.</p>\
                \(message)<form method="post" action="\(HTML.escape(action))">\
                <input type="hidden" name="csrf" value="\(HTML.escape(csrf))">\
                <label for="token">API token</label>\
                <input id="token" name="token" type="password" autocomplete="off" required spellcheck="false">\
                <p><button type="submit">Sign in</button></p></form></section>
                """)
    }

    /// The consent page: each kind of data in `offered`, what it covers and why it is used,
    /// with "Allow" and "Don't allow" (the current decision chosen; undecided kinds neither).
    public static func consent(
        offered: Set<HealthDataCategory>, granted: Set<HealthDataCategory>, denied: Set<HealthDataCategory>,
        csrf: String, action: String = "/consent", firstTime: Bool
    ) -> String {
        let intro =
            firstTime
            ? "Before the dashboard shows anything, choose what it may use. Nothing is read until you allow it."
            : "Change what the dashboard — and the tokens you gave to coaches — may use. You can come back at any time."
        let fieldsets = offered.sorted().map { category in
            let name = category.rawValue
            let allow = granted.contains(category) ? " checked" : ""
            let deny = denied.contains(category) ? " checked" : ""
            return """
                <fieldset><legend>\(HTML.escape(category.title))</legend>\
                <p>\(HTML.escape(category.covers.prefix(1).uppercased() + category.covers.dropFirst())).</p>\
                <p class="note">Used for: \(HTML.escape(category.purpose)).</p>\
                <p><label><input type="radio" name="\(name)" value="allow"\(allow)> Allow</label>\
                <label><input type="radio" name="\(name)" value="deny"\(deny)> Don't allow</label></p></fieldset>
                """
        }.joined()
        let notOffered = Set(HealthDataCategory.allCases).subtracting(offered)
        let tokenNote =
            notOffered.isEmpty
            ? ""
            : "<p class=\"note\">Your token does not read "
                + HTML.escape(notOffered.sorted().map { $0.title.lowercased() }.joined(separator: ", "))
                + " at all, so they are not asked about.</p>"
        return document(
            title: "Your data",
            body: """
                <section class="panel" aria-labelledby="consent-h"><h2 id="consent-h">What may HealthPipeline use?</h2>\
                <p>\(HTML.escape(intro))</p>\(tokenNote)\
                <form method="post" action="\(HTML.escape(action))">\
                <input type="hidden" name="csrf" value="\(HTML.escape(csrf))">\(fieldsets)\
                <p><button type="submit">Save</button></p></form></section>
                """)
    }

    /// The dashboard's re-prompt: names the kinds that are off, links to the consent page,
    /// and offers "Not now" (posted to `laterAction`, which holds the prompt back).
    public static func reprompt(off: Set<HealthDataCategory>, consentPath: String, laterAction: String, csrf: String) -> String {
        let names = off.sorted().map { $0.title.lowercased() }.joined(separator: ", ")
        return """
            <aside class="banner" aria-label="Data you have not allowed"><p>Some panels are empty because the \
            dashboard may not use: \(HTML.escape(names)).</p><a class="button" href="\(HTML.escape(consentPath))">Review access</a>\
            <form class="inline" method="post" action="\(HTML.escape(laterAction))">\
            <input type="hidden" name="csrf" value="\(HTML.escape(csrf))"><button class="quiet" type="submit">Not now</button>\
            </form></aside>
            """
    }

    /// The header's sign-out form, with who is signed in.
    public static func signOut(
        name: String, action: String = "/logout", csrf: String, consentPath: String = "/consent"
    )
        -> String
    {
        """
        <div class="account"><span class="meta">\(HTML.escape(name))</span> \
        <a class="button" href="\(HTML.escape(consentPath))">Your data</a> \
        <form class="inline" method="post" action="\(HTML.escape(action))">\
        <input type="hidden" name="csrf" value="\(HTML.escape(csrf))"><button class="quiet" type="submit">Sign out</button>\
        </form></div>
        """
    }

    /// A small page in the dashboard's style.
    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(HTML.escape(title)) — HealthPipeline</title>
        <style>\(DashboardStyle.css)</style></head>
        <body><header class="top"><div><h1>\(HTML.escape(title))</h1></div></header>
        <main class="narrow">\(body)</main></body></html>
        """
    }
}
