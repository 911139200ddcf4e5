"""``index.html`` of ``vfxviewer gallery``: one self-contained page (inline CSS and JS, no
network, no server: it works opened from the file system) with a table of every script
rendered: thumbnail (the looping GIF, linking to the PNG poster), DID, PlayScript uses by
name, duration, emitters, peak particles, sounds, hooks, the Setup it played on. A click on
a header sorts by that column (again: the other way); the text box keeps the rows whose
text holds every word typed. The page reads ``?sort=KEY&desc=1&filter=TEXT`` once loaded
(the same click and typing, for links and the browser test). Scripts that failed are listed
after, with their error.
"""

from __future__ import annotations

import html
from pathlib import Path

#: (key, header, numeric) of the sortable columns, in table order
COLUMNS = (("did", "DID", False), ("uses", "Used as", False), ("duration", "Duration (s)", True),
           ("emitters", "Emitters", True), ("peak", "Peak particles", True),
           ("sounds", "Sounds", True), ("hooks", "Hooks", True), ("setup", "Setup", False))

_CSS = """
body{font:14px system-ui,sans-serif;margin:16px;background:#1b1d22;color:#e4e6eb}
h1{font-size:18px;margin:0 0 8px}
#filter{width:28em;padding:4px 6px;font:inherit}
table{border-collapse:collapse;margin-top:10px}
th,td{border-bottom:1px solid #3a3d45;padding:4px 8px;text-align:left;vertical-align:middle}
th{cursor:pointer;user-select:none;background:#262931;position:sticky;top:0}
th.sorted.asc::after{content:" \\25B2"} th.sorted.desc::after{content:" \\25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.did{font-family:ui-monospace,monospace}
img{display:block;background:#000;image-rendering:auto}
.failed td{color:#ff8a80}
#count{margin-left:12px;color:#a0a4ad}
"""

_JS = """
(function(){
  var table=document.getElementById('scripts'), body=table.tBodies[0];
  var heads=table.tHead.rows[0].cells, box=document.getElementById('filter');
  var count=document.getElementById('count');
  var key=null, desc=false;
  function value(row,k){
    var c=row.querySelector('td[data-key="'+k+'"]'); if(!c) return '';
    var v=c.getAttribute('data-sort'); v=(v===null)?c.textContent:v;
    return c.classList.contains('num')?parseFloat(v):v.toLowerCase();
  }
  function sortBy(k){
    desc=(key===k)?!desc:false; key=k;
    var rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){
      var x=value(a,k), y=value(b,k), r=(x<y)?-1:(x>y)?1:0;
      if(r===0){x=value(a,'did');y=value(b,'did');r=(x<y)?-1:(x>y)?1:0;}
      return desc?-r:r;
    });
    rows.forEach(function(r){body.appendChild(r);});
    for(var i=0;i<heads.length;i++){
      var h=heads[i], on=h.getAttribute('data-key')===k;
      h.classList.toggle('sorted',on); h.classList.toggle('asc',on&&!desc);
      h.classList.toggle('desc',on&&desc);
    }
  }
  function filter(){
    var words=box.value.toLowerCase().split(/\\s+/).filter(Boolean), shown=0;
    Array.prototype.forEach.call(body.rows,function(r){
      var text=(r.textContent+' '+(r.getAttribute('data-search')||'')).toLowerCase();
      var ok=words.every(function(w){return text.indexOf(w)>=0;});
      r.hidden=!ok; if(ok) shown++;
    });
    count.textContent=shown+' of '+body.rows.length+' scripts';
  }
  for(var i=0;i<heads.length;i++){
    if(heads[i].getAttribute('data-key')){
      heads[i].addEventListener('click',function(){sortBy(this.getAttribute('data-key'));});
    }
  }
  box.addEventListener('input',filter);
  var q=new URLSearchParams(location.search);
  if(q.get('sort')){
    var h=table.tHead.querySelector('th[data-key="'+q.get('sort')+'"]');
    if(h){h.click(); if(q.get('desc')==='1') h.click();}
  }
  if(q.get('filter')!==null){box.value=q.get('filter'); box.dispatchEvent(new Event('input'));}
  filter();
})();
"""


def _td(key: str, text, *, sort=None, numeric: bool = False, cls: str = "") -> str:
    classes = " ".join(c for c in (cls, "num" if numeric else "") if c)
    attrs = f' data-key="{key}"'
    if classes:
        attrs += f' class="{classes}"'
    if sort is not None:
        attrs += f' data-sort="{html.escape(str(sort))}"'
    return f"<td{attrs}>{html.escape(str(text))}</td>"


def _uses_text(uses: list[dict]) -> tuple[str, str]:
    """(what the cell shows, the title: each use with its table)."""
    names = []
    for u in uses:
        if u["type"] not in names:
            names.append(u["type"])
    title = "; ".join(f"{u['label']} in {u['by']}" for u in uses)
    return ", ".join(names), title


def _row(entry: dict, uses: list[dict]) -> str:
    did = entry["did"]
    shown, title = _uses_text(uses)
    thumb, poster = html.escape(entry["thumb"]), html.escape(entry["poster"])
    w_h = entry.get("size") or ""
    cells = [
        f'<td><a href="{poster}"><img src="{thumb}" alt="{did}" loading="lazy"{w_h}></a></td>',
        _td("did", did, cls="did"),
        f'<td data-key="uses" title="{html.escape(title)}">{html.escape(shown)}</td>',
        _td("duration", f"{entry['duration']:.3g}", sort=entry["duration"], numeric=True),
        _td("emitters", entry["emitters"], numeric=True),
        _td("peak", entry["peak_particles"], numeric=True),
        _td("sounds", entry["sounds"], numeric=True),
        _td("hooks", entry["hooks"], numeric=True),
        _td("setup", entry["setup"] + (" (stand)" if entry.get("stand") else "")),
    ]
    search = " ".join([*(u["label"] for u in uses), *entry.get("waves", [])])
    return (f'<tr data-did="{did}" data-search="{html.escape(search)}">'
            + "".join(cells) + "</tr>")


def _failed_row(did: str, message: str) -> str:
    return (f'<tr class="failed" data-did="{html.escape(did)}"><td></td>'
            + _td("did", did, cls="did")
            + f'<td colspan="{len(COLUMNS) - 1}">failed: {html.escape(message)}</td></tr>')


def index_html(entries: list[dict], failed: dict[str, str], uses: dict[int, list[dict]],
               size: tuple[int, int] | None = None) -> str:
    """The page for ``entries`` (the manifest's rows) and the ``failed`` scripts."""
    dims = f' width="{size[0]}" height="{size[1]}"' if size else ""
    heads = "<th>Thumbnail</th>" + "".join(
        f'<th data-key="{k}">{html.escape(label)}</th>' for k, label, _ in COLUMNS)
    rows = [_row({**e, "size": dims}, uses.get(int(e["did"], 16), [])) for e in entries]
    rows += [_failed_row(d, m) for d, m in sorted(failed.items())]
    summary = f"{len(entries)} scripts rendered" + (f", {len(failed)} failed" if failed
                                                    else "")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>vfxviewer gallery</title>"
            f"<style>{_CSS}</style></head><body>"
            f"<h1>PhysicsScript gallery</h1><p>{html.escape(summary)}</p>"
            '<input id="filter" type="search" placeholder="filter: DID, PlayScript, '
            'Setup, wave..." autofocus><span id="count"></span>'
            f'<table id="scripts"><thead><tr>{heads}</tr></thead><tbody>\n'
            + "\n".join(rows) + "\n</tbody></table>"
            f"<script>{_JS}</script></body></html>\n")


def write_index(out: Path, entries: list[dict], failed: dict[str, str],
                uses: dict[int, list[dict]], size: tuple[int, int] | None = None) -> Path:
    """Write ``out/index.html`` beside and rename (never half a page:
    viewer.media.replacing)."""
    from viewer.media import replacing
    path = out / "index.html"
    with replacing(path) as tmp:
        tmp.write_text(index_html(entries, failed, uses, size), encoding="utf-8")
    return path


__all__ = ["COLUMNS", "index_html", "write_index"]
