import HealthCore

/// The pages around the server's dashboard: sign-in, consent — the web analogue of
/// HealthKit's authorization sheet (seed 002 §1–3): what each kind of data is and why it is
/// used, asked before any of it is shown, and allowed or not one kind at a time — and the
/// owner's scoped tokens.
///
/// Every form carries the session's CSRF token in a hidden `csrf` field.
public enum AccessPages {
    /// The sign-in form: the person's API token, posted to `action`.
    /// `next`, when given, is where the sign-in goes on to (an app's consent page).
    public static func signIn(action: String = "/login", csrf: String, error: String? = nil, next: String? = nil) -> String {
        let message = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        let carried = next.map { "<input type=\"hidden\" name=\"next\" value=\"\(HTML.escape($0))\">" } ?? ""
        return document(
            title: "Sign in",
            body: """
                <section class="panel" aria-labelledby="signin-h"><h2 id="signin-h">Sign in to your health dashboard</h2>\
                <p>Paste the API token you were given (<code>healthpipe users add</code> prints it once). \
                It is checked and forgotten: the browser keeps only a session cookie, which ends when you sign out.</p>\
                \(message)<form method="post" action="\(HTML.escape(action))">\
                <input type="hidden" name="csrf" value="\(HTML.escape(csrf))">\(carried)\
                <label for="token">API token</label>\
                <input id="token" name="token" type="password" autocomplete="off" required spellcheck="false">\
                <p><button type="submit">Sign in</button></p></form></section>
                """)
    }

    /// The consent page: each kind of data in `offered`, what it covers and why it is used,
    /// with "Allow" and "Don't allow" (the current decision chosen; undecided kinds neither).
    public static func consent(
        offered: Set<HealthDataCategory>, granted: Set<HealthDataCategory>, denied: Set<HealthDataCategory>,
        csrf: String, action: String = "/consent", firstTime: Bool, tokensPath: String? = nil
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
        let tokensLink =
            tokensPath.map {
                "<p class=\"note\"><a href=\"\(HTML.escape($0))\">Tokens you gave to others</a>: "
                    + "make, list and revoke the tokens that read what you allow here.</p>"
            } ?? ""
        return document(
            title: "Your data",
            body: """
                <section class="panel" aria-labelledby="consent-h"><h2 id="consent-h">What may HealthPipeline use?</h2>\
                <p>\(HTML.escape(intro))</p>\(tokenNote)\
                <form method="post" action="\(HTML.escape(action))">\
                <input type="hidden" name="csrf" value="\(HTML.escape(csrf))">\(fieldsets)\
                <p><button type="submit">Save</button></p></form>\(tokensLink)</section>
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

    /// One of the owner's scoped tokens on the tokens page: never its secret.
    public struct TokenRow: Sendable {
        public var name: String
        /// The kinds it reads (`steps,sleep`) and writes (`—` for none).
        public var reads: String
        public var writes: String
        /// When it was made, and revoked (`nil`: live), as text.
        public var created: String
        public var revoked: String?

        public init(name: String, reads: String, writes: String, created: String, revoked: String?) {
            self.name = name
            self.reads = reads
            self.writes = writes
            self.created = created
            self.revoked = revoked
        }
    }

    /// The owner's scoped tokens — tokens of their data for a coach or another screen — with
    /// a Revoke button for each live one, and a form (posted to `action`) that makes a new one
    /// from a name and the kinds it may read and write. `created` is the token just made, shown
    /// this once.
    public static func tokens(
        _ rows: [TokenRow], created: (name: String, token: String)?, csrf: String, error: String? = nil,
        action: String = "/tokens", revokeAction: String = "/tokens/revoke", consentPath: String = "/consent"
    ) -> String {
        let hidden = "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
        let message = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        let shown =
            created.map {
                "<p role=\"status\">The token <strong>\(HTML.escape($0.name))</strong>, shown this once — "
                    + "copy it now: <code>\(HTML.escape($0.token))</code></p>"
            } ?? ""
        let list: String
        if rows.isEmpty {
            list = "<p>You have made no scoped token yet.</p>"
        } else {
            let body = rows.map { row in
                let state =
                    row.revoked.map { "revoked \(HTML.escape($0))" }
                        ?? """
                        <form class="inline" method="post" action="\(HTML.escape(revokeAction))">\(hidden)\
                        <input type="hidden" name="name" value="\(HTML.escape(row.name))">\
                        <button class="quiet" type="submit">Revoke</button></form>
                        """
                return """
                    <tr><th scope="row">\(HTML.escape(row.name))</th><td>\(HTML.escape(row.reads))</td>\
                    <td>\(HTML.escape(row.writes))</td><td>\(HTML.escape(row.created))</td><td>\(state)</td></tr>
                    """
            }.joined()
            list = """
                <table><thead><tr><th scope="col">Name</th><th scope="col">Reads</th><th scope="col">Writes</th>\
                <th scope="col">Made</th><th scope="col">State</th></tr></thead><tbody>\(body)</tbody></table>
                """
        }
        let kinds = HealthDataCategory.allCases.map { category in
            let (name, title) = (category.rawValue, HTML.escape(category.title))
            return """
                <tr><th scope="row">\(title)</th>\
                <td><input type="checkbox" name="read_\(name)" aria-label="Read \(title)"></td>\
                <td><input type="checkbox" name="write_\(name)" aria-label="Write \(title)"></td></tr>
                """
        }.joined()
        return document(
            title: "Your tokens",
            body: """
                <section class="panel" aria-labelledby="tokens-h"><h2 id="tokens-h">Tokens you gave to others</h2>\
                <p>A scoped token reads the kinds ticked for it that you also allow on \
                <a href="\(HTML.escape(consentPath))">Your data</a>, and nothing else. It writes only the kinds \
                ticked under Write. It cannot sign in here, change what is allowed, or delete your account.</p>\
                \(message)\(shown)\(list)</section>\
                <section class="panel" aria-labelledby="new-token-h"><h2 id="new-token-h">Make a token</h2>\
                <form method="post" action="\(HTML.escape(action))">\(hidden)\
                <label for="token-name">Name (letters, digits, - _ .)</label>\
                <input id="token-name" name="name" required maxlength="64" spellcheck="false">\
                <table><thead><tr><th scope="col">Kind</th><th scope="col">Read</th><th scope="col">Write</th></tr>\
                </thead><tbody>\(kinds)</tbody></table>\
                <p><button type="submit">Make token</button></p></form></section>
                """)
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
