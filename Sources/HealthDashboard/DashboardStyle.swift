/// The page's styles: system fonts, a light and a dark palette (contrast ≥ 4.5:1 for
/// text), a grid of panels that folds into one column on a phone.
enum DashboardStyle {
    static let css = """
        :root{--bg:#f6f7f9;--panel:#fff;--text:#1b1f24;--muted:#57606a;--line:#d0d7de;--accent:#0b62d6;\
        --bar:#3b7dd8;--goal:#b35900;--band:rgba(46,160,67,.16);--line-a:#0b62d6;--smooth:#b35900;\
        --deep:#283593;--core:#3f7be0;--rem:#8e5bd8;--unspec:#7aa7e8;--awake:#e0823f;--bed:#283593;--wake:#d9480f;\
        --move:#e5245a;--exercise:#5fc400;--stand:#00a3c4}
        @media (prefers-color-scheme:dark){:root{--bg:#0f1115;--panel:#181b21;--text:#e6e8eb;--muted:#a4acb6;\
        --line:#30363d;--accent:#6cb6ff;--bar:#5b9cf0;--goal:#f0a04b;--band:rgba(63,185,80,.2);--line-a:#6cb6ff;\
        --smooth:#f0a04b;--deep:#7986cb;--core:#5b9cf0;--rem:#b48ef0;--unspec:#9cc3f5;--awake:#f0a04b;--bed:#9fa8da;\
        --wake:#ff8a5b}}
        *{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);\
        font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        .top{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:flex-end;justify-content:space-between;\
        padding:1rem 1.25rem .5rem}
        h1{font-size:1.5rem;margin:0}h2{font-size:1.15rem;margin:0 0 .6rem}h3{font-size:1rem;margin:0}
        .meta,.note,.when,.dates{color:var(--muted)}.meta{margin:.2rem 0 0}.note{font-size:.9rem}
        .ranges a,.button{display:inline-block;padding:.3rem .7rem;border:1px solid var(--line);border-radius:999px;\
        color:var(--accent);text-decoration:none;margin-left:.3rem}.ranges a[aria-current]{background:var(--accent);\
        color:var(--panel);border-color:var(--accent)}
        .grid{display:grid;gap:1rem;padding:0 1.25rem 1.25rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,30rem),1fr))}
        .panel{background:var(--panel);border:1px solid var(--line);border-radius:12px;padding:1rem;min-width:0}
        .panel-trends,.panel-sleep{grid-column:1/-1}
        .charts{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,24rem),1fr))}
        figure.chart{margin:0}figcaption{font-weight:600;font-size:.95rem;margin-bottom:.2rem}\
        figcaption .unit{font-weight:400;color:var(--muted);font-size:.85rem}
        svg{width:100%;height:auto;display:block}svg.rings{max-width:11rem;float:left;margin-right:1rem}
        svg.route{max-width:9rem}
        .grid line{stroke:var(--line);stroke-width:1}.tick{fill:var(--muted);font-size:15px}
        .bar{fill:var(--bar)}.goal{stroke:var(--goal);stroke-dasharray:5 4;stroke-width:1.5}
        .band{fill:var(--band)}.line{fill:none;stroke:var(--line-a);stroke-width:2}\
        .smooth{fill:none;stroke:var(--smooth);stroke-width:2.5}.dot{fill:var(--line-a)}
        .stage-deep{fill:var(--deep);background:var(--deep)}.stage-core{fill:var(--core);background:var(--core)}\
        .stage-rem{fill:var(--rem);background:var(--rem)}.stage-unspecified{fill:var(--unspec);background:var(--unspec)}\
        .stage-awake{fill:var(--awake);background:var(--awake)}
        .bed{fill:var(--bed);background:var(--bed)}.wake{fill:var(--wake);background:var(--wake)}
        .key{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin:0 .25em 0 .6em;vertical-align:-.05em}
        .legend{font-size:.85rem;color:var(--muted)}
        .ring-track{fill:none;stroke:var(--line);stroke-width:16}.ring{fill:none;stroke-width:16;stroke-linecap:round}\
        .ring.ring-0{stroke:var(--move)}.ring.ring-1{stroke:var(--exercise)}.ring.ring-2{stroke:var(--stand)}
        .route-line{fill:none;stroke:var(--accent);stroke-width:3;stroke-linejoin:round}
        dl.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(7.5rem,1fr));gap:.5rem;margin:0}\
        dl.figures dt{color:var(--muted);font-size:.85rem}dl.figures dd{margin:0;font-size:1.3rem;font-weight:600}\
        dl.small dd{font-size:1rem}
        dl.quality div{margin-bottom:.5rem}dl.quality dt{font-weight:600}dl.quality dd{margin:0}
        .score{margin:0 0 .3rem}.score .big{font-size:3rem;font-weight:700;line-height:1}.score .label{font-size:1.1rem}
        .band-optimal .big{color:#1a7f37}.band-good .big{color:var(--accent)}.band-fair .big{color:var(--goal)}\
        .band-pay_attention .big{color:#cf222e}
        @media (prefers-color-scheme:dark){.band-optimal .big{color:#56d364}.band-pay_attention .big{color:#ff7b72}}
        table{border-collapse:collapse;width:100%;font-size:.85rem}th,td{text-align:left;padding:.25rem .4rem;\
        border-bottom:1px solid var(--line);vertical-align:top}caption{text-align:left;color:var(--muted);padding:.2rem 0}
        details{margin-top:.3rem;font-size:.85rem}summary{cursor:pointer;color:var(--accent)}
        details table{display:block;max-height:16rem;overflow:auto}
        ul.workouts{list-style:none;margin:0;padding:0}li.workout{display:flex;gap:1rem;justify-content:space-between;\
        padding:.6rem 0;border-bottom:1px solid var(--line)}li.workout>div{flex:1;min-width:0}.when{margin:.1rem 0 .4rem}
        .placeholder{border:1px dashed var(--line);border-radius:8px;padding:.8rem;color:var(--muted);clear:both}
        .placeholder p{margin:0 0 .4rem}
        footer{padding:0 1.25rem 1.5rem;color:var(--muted);font-size:.85rem}
        code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
        .narrow{max-width:44rem;margin:0 auto;padding:0 1.25rem 1.5rem}.narrow .panel{margin-bottom:1rem}
        label{display:block;font-weight:600;margin:.6rem 0 .3rem}input[type=password]{width:100%;padding:.5rem;\
        font:inherit;color:var(--text);background:var(--bg);border:1px solid var(--line);border-radius:8px}
        button{font:inherit;padding:.4rem .9rem;border-radius:999px;border:1px solid var(--accent);\
        background:var(--accent);color:var(--panel);cursor:pointer}button.quiet{background:none;color:var(--accent)}
        form.inline{display:inline}.error{color:#cf222e;font-weight:600}
        fieldset{border:1px solid var(--line);border-radius:8px;margin:0 0 .75rem;padding:.6rem .9rem}\
        legend{font-weight:600;padding:0 .3rem}fieldset p{margin:.2rem 0}fieldset label{display:inline;font-weight:400;\
        margin-right:1.2rem}
        .panel-route,.panel-heart{grid-column:1/-1}figure.map{margin:0}figure.map svg{max-height:32rem}
        .route-line.pace-0,.route-line.heart-0{stroke:#2b6cb0}.route-line.pace-1,.route-line.heart-1{stroke:#2f9e8f}        .route-line.pace-2,.route-line.heart-2{stroke:#6aa84f}.route-line.pace-3,.route-line.heart-3{stroke:#e0a030}        .route-line.pace-4,.route-line.heart-4{stroke:#d9480f}
        .key.pace-0,.key.heart-0{background:#2b6cb0}.key.pace-1,.key.heart-1{background:#2f9e8f}        .key.pace-2,.key.heart-2{background:#6aa84f}.key.pace-3,.key.heart-3{background:#e0a030}        .key.pace-4,.key.heart-4{background:#d9480f}
        .start{fill:#1a7f37;stroke:var(--panel);stroke-width:2}.finish{fill:#cf222e;stroke:var(--panel);stroke-width:2}        .scale{stroke:var(--text);stroke-width:3}
        .zone-1{fill:rgba(120,144,156,.14)}.zone-2{fill:rgba(43,108,176,.14)}.zone-3{fill:rgba(106,168,79,.16)}        .zone-4{fill:rgba(224,160,48,.18)}.zone-5{fill:rgba(217,72,15,.18)}.line.heart{stroke:#cf222e}
        .banner{margin:0 1.25rem 1rem;padding:.7rem 1rem;border:1px solid var(--accent);border-radius:8px;\
        background:var(--panel)}.banner p{margin:0 0 .4rem}
        """
}
