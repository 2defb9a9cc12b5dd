import HealthCore

extension AccessPages {
    /// The consent page of an app connecting by OAuth (docs/oauth.md): who asks, where the
    /// answer goes, and each kind of data with a box — the kinds the app asked for ticked —
    /// except those denied on the person's own consent page, which are shown and cannot be
    /// ticked here. "Allow" and "Don't allow" post the form, with the request's parameters
    /// in `carried` hidden fields.
    public static func authorize(
        clientName: String, redirectHost: String, offered: Set<HealthDataCategory>, ticked: Set<HealthDataCategory>,
        denied: Set<HealthDataCategory>, carried: [(name: String, value: String)], csrf: String,
        action: String = "/oauth/authorize", consentPath: String = "/consent", error: String? = nil
    ) -> String {
        let message = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        let hidden = ([("csrf", csrf)] + carried).map { name, value in
            "<input type=\"hidden\" name=\"\(HTML.escape(name))\" value=\"\(HTML.escape(value))\">"
        }.joined()
        let rows = offered.sorted().map { category in
            let (name, title) = (category.rawValue, HTML.escape(category.title))
            let box =
                denied.contains(category)
                ? "<td class=\"note\">off: you do not allow it on <a href=\"\(HTML.escape(consentPath))\">Your data</a></td>"
                : "<td><input type=\"checkbox\" name=\"read_\(name)\" aria-label=\"Read \(title)\""
                    + (ticked.contains(category) ? " checked" : "") + "></td>"
            return "<tr><th scope=\"row\">\(title)</th>\(box)<td class=\"note\">\(HTML.escape(category.purpose))</td></tr>"
        }.joined()
        return document(
            title: "Connect an app",
            body: """
                <section class="panel" aria-labelledby="authorize-h"><h2 id="authorize-h">\
                <strong>\(HTML.escape(clientName))</strong> asks to read your health data</h2>\
                <p>If you allow it, the app reads the kinds ticked below through this server's MCP endpoint, \
                and nothing else: it cannot write, change what is allowed, or sign in here. Your answer goes \
                back to <code>\(HTML.escape(redirectHost))</code>. You can disconnect it at any time on \
                <a href="/tokens">Tokens you gave to others</a>.</p>\(message)\
                <form method="post" action="\(HTML.escape(action))">\(hidden)\
                <table><thead><tr><th scope="col">Kind</th><th scope="col">Read</th><th scope="col">Used for</th></tr>\
                </thead><tbody>\(rows)</tbody></table>\
                <p><button type="submit" name="decision" value="allow">Allow</button> \
                <button class="quiet" type="submit" name="decision" value="deny">Don't allow</button></p></form></section>
                """)
    }

    /// A refused authorization request that cannot be sent back to the app (an unknown app
    /// or redirect URI): what is wrong, and that nothing was shared.
    public static func authorizeRefused(_ reason: String) -> String {
        document(
            title: "Connect an app",
            body: """
                <section class="panel" aria-labelledby="refused-h"><h2 id="refused-h">This request cannot go on</h2>\
                <p class="error" role="alert">\(HTML.escape(reason.prefix(1).uppercased() + reason.dropFirst())).</p>\
                <p>Nothing was shared. Start the connection again from the app.</p></section>
                """)
    }
}
