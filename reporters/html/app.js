// Cookie's HTML report: a dependency-free single page that works opened from disk (file://) and from a
// static server. The summary is inlined in index.html; each evaluation's details load on demand from
// data/<n>/eval.js (a script, since file:// forbids fetch). `aggregate` is inlined from aggregate.js.
/* global aggregate */
(() => {
  const DATA = JSON.parse(document.getElementById('cookie-data').textContent);
  const app = document.getElementById('app');
  const details = {};
  const h = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const num = (x) => (x === null || x === undefined ? '–' : Number(x).toFixed(1));
  const pct = (x) => (x === null || x === undefined ? '–' : `${Math.round(x * 100)}%`);
  const filters = { category: '', language: '', difficulty: '' };
  const sort = { key: 'verdict', dir: 1 };
  const SEV = { critical: 0, major: 1, minor: 2 };
  const VERDICT = { error: 0, fail: 1, pass: 2 };

  window.__cookieEvalLoaded = (n, d) => {
    details[n] = d;
    const m = location.hash.match(/^#\/(eval|compare)\/(\d+)(?:\/(\d+))?/);
    if (m && (m[2] === String(n) || m[3] === String(n))) render();
  };

  /** Details of evaluation n, loading data/<n>/eval.js on first use (file:// forbids fetch); null until loaded. */
  function need(n) {
    if (details[n]) return details[n];
    if (!document.querySelector(`script[data-eval="${n}"]`)) {
      const s = document.createElement('script');
      s.src = `data/${n}/eval.js`;
      s.dataset.eval = String(n);
      document.body.appendChild(s);
    }
    return null;
  }

  const verdictTag = (e) => `<span class="verdict-tag vt-${h(e.verdict)}" data-testid="verdict-tag">${h(e.verdict)}</span>`;
  const worstText = (e) => {
    const w = e.worst >= 0 ? e.defects[e.worst] : null;
    return w ? `<span class="tag sev-${h(w.severity)}">${h(w.severity)}</span> ${h(w.title)}` : '<span class="muted">none</span>';
  };
  const sortValue = {
    verdict: (e) => VERDICT[e.verdict],
    query: (e) => e.queryId,
    candidate: (e) => e.candidate,
    f: (e) => (e.scores ? e.scores.functionality : -1),
    a: (e) => (e.scores ? e.scores.aesthetics : -1),
    total: (e) => (e.scores ? e.scores.total : -1),
    worst: (e) => (e.worst >= 0 ? SEV[e.defects[e.worst].severity] * 100 - e.defects[e.worst].deduction : 999),
    defects: (e) => -e.defects.length,
  };
  function sorted(evs) {
    const f = sortValue[sort.key];
    return [...evs].sort((x, y) => {
      const a = f(x);
      const b = f(y);
      return (typeof a === 'string' ? a.localeCompare(b) : a - b) * sort.dir || x.n - y.n;
    });
  }
  const sibling = (e) => DATA.evaluations.find((x) => x.queryId === e.queryId && x.n !== e.n && (!e.trial || !x.trial || x.trial.baseId !== e.trial.baseId));
  // repeated trials (--repeat-each): summaries per candidate × query, with `reason` and `line` in words
  const TRIALS = DATA.trials || [];
  const trialOf = (e) => (e.trial ? TRIALS.find((t) => t.id === e.trial.baseId) : undefined);
  const spread = (s) => (s ? `${num(s.mean)} ± ${num(s.sd)}` : '–');
  const unstableTag = (t) => `<span class="tag unstable" data-testid="unstable-tag" title="${h(t.reason)}">unstable</span>`;
  const trialTag = (e) => (e.trial ? ` <span class="tag" data-testid="trial-tag">trial ${e.trial.index}/${e.trial.of}</span>` : '');

  function options(key) {
    const vals = [...new Set(DATA.evaluations.map((e) => e.query && e.query[key]).filter(Boolean))].sort();
    return `<option value="">all</option>${vals.map((v) => `<option ${filters[key] === v ? 'selected' : ''}>${h(v)}</option>`).join('')}`;
  }

  function board() {
    const match = (e) => (!filters.category || e.query.category === filters.category) && (!filters.language || e.query.language === filters.language) && (!filters.difficulty || e.query.difficulty === filters.difficulty);
    const evs = DATA.evaluations.filter(match);
    // one entry per query × candidate (trial means when repeated), so a query counts once in means, intervals and win rates
    const means = (DATA.board || DATA.evaluations).filter(match);
    const rows = aggregate(means);
    const repeated = TRIALS.length > 0;
    const shownTrials = TRIALS.filter((t) => means.some((m) => m.trialSummary && m.trialSummary.id === t.id));
    const cell = (m) => (m ? `<td>${num(m.functionality)}</td><td>${num(m.aesthetics)}</td><td>${num(m.total)}</td>` : '<td>–</td><td>–</td><td>–</td>');
    const overallCell = (m) => `<td>${num(m.functionality)}</td><td>${num(m.aesthetics)}</td><td data-testid="total-ci" title="mean total ± half-width of its 95 % interval across ${m.n} queries">${num(m.total)}${m.ci95 !== null && m.ci95 !== undefined ? ` <span class="muted">± ${num(m.ci95)}</span>` : ''}</td>`;
    app.innerHTML = `
      <header><h1>Cookie report</h1><p class="summary" data-testid="summary"><b class="vt-pass">${DATA.evaluations.filter((e) => e.verdict === 'pass').length} passed</b> · <b class="vt-fail">${DATA.evaluations.filter((e) => e.verdict === 'fail').length} failed</b> · <b class="vt-error">${DATA.evaluations.filter((e) => e.verdict === 'error').length} errors</b></p><p class="muted">${h(DATA.run.evaluations)} evaluations · Cookie ${h(DATA.run.cookieVersion)} · ${h(DATA.run.browserVersion)} · ${h(DATA.run.startedAt)}</p></header>
      <section class="filters" data-testid="filters">
        <label>Category <select data-filter="category">${options('category')}</select></label>
        <label>Language <select data-filter="language">${options('language')}</select></label>
        <label>Difficulty <select data-filter="difficulty">${options('difficulty')}</select></label>
        <span class="muted">${evs.length} evaluations shown</span>
      </section>
      <table class="board" data-testid="leaderboard">
        <thead><tr><th rowspan="2">#</th><th rowspan="2">Candidate</th><th rowspan="2">Mode</th><th colspan="3">Dynamic</th><th colspan="3">Static</th><th colspan="3">Overall</th><th rowspan="2">Runnable</th><th rowspan="2">Win rate</th>${repeated ? '<th rowspan="2">Trials</th><th rowspan="2">Unstable</th>' : ''}<th rowspan="2">Cost (USD)</th><th rowspan="2">Generation (USD)</th><th rowspan="2">Judge (USD)</th><th rowspan="2">USD / point</th></tr>
        <tr><th>F</th><th>A</th><th>Total</th><th>F</th><th>A</th><th>Total</th><th>F</th><th>A</th><th>Total ± 95% CI</th></tr></thead>
        <tbody>${rows
          .map((r, i) => `<tr data-testid="board-row"><td>${i + 1}</td><td>${h(r.candidate)}</td><td><span class="tag">${h(r.mode === 'react' ? 'React' : 'HTML')}</span></td>${cell(r.byPageType.dynamic)}${cell(r.byPageType.static)}${overallCell(r.overall)}<td>${pct(r.runnableRate)}</td><td data-testid="win-rate">${pct(r.winRate)}</td>${repeated ? `<td>${r.trials}</td><td data-testid="board-unstable">${r.unstable ? `<span class="vt-fail">${r.unstable}</span>` : '0'}</td>` : ''}<td>${r.usage.costUsd ? r.usage.costUsd.toFixed(4) : '–'}</td><td data-testid="generation-cost">${r.generation ? r.generationCostUsd.toFixed(4) : '–'}</td><td data-testid="judge-cost">${r.judgeCostUsd ? r.judgeCostUsd.toFixed(4) : '–'}</td><td data-testid="cost-per-point">${r.totalCostPerPoint !== null && (r.usage.costUsd || r.generationCostUsd) ? r.totalCostPerPoint.toFixed(6) : '–'}</td></tr>`)
          .join('')}</tbody>
      </table>
      ${
        repeated
          ? `<h2>Trials</h2><p class="muted">Each evaluation ran ${Math.max(...TRIALS.map((t) => t.n))} times with its own seeds; the leaderboard uses the trial means. Unstable: the totals differ by more than ${h(TRIALS[0].margin)} points, or only some trials were scored.</p>
      <table class="trials" data-testid="trials"><thead><tr><th>Query</th><th>Candidate</th><th>Trials</th><th>F (mean)</th><th>A (mean)</th><th>Total (mean ± sd)</th><th>Range</th><th>Passed</th><th>Stability</th></tr></thead>
      <tbody>${shownTrials
        .map((t) => {
          const rs = DATA.evaluations.filter((e) => e.trial && e.trial.baseId === t.id);
          return `<tr data-testid="trial-row" class="${t.unstable ? 'row-unstable' : ''}"><td>${h(t.queryId)}</td><td>${h(t.candidate)}</td><td>${t.scored === t.n ? t.n : `${t.scored} scored of ${t.n}`}</td><td>${num(t.functionality && t.functionality.mean)}</td><td>${num(t.aesthetics && t.aesthetics.mean)}</td><td data-testid="trial-spread">${spread(t.total)}</td><td>${t.total ? `${num(t.total.min)}–${num(t.total.max)}` : '–'}</td><td>${rs.filter((e) => e.verdict === 'pass').length}/${t.n}</td><td>${t.unstable ? `${unstableTag(t)} <span class="small">${h(t.reason)}</span>` : '<span class="muted">stable</span>'}</td></tr>`;
        })
        .join('')}</tbody></table>`
          : ''
      }
      <h2>Evaluations</h2>
      <table class="evals" data-testid="evals"><thead><tr>${[['verdict', 'Verdict'], ['query', 'Query'], ['candidate', 'Candidate'], ['f', 'F'], ['a', 'A'], ['total', 'Total'], ['worst', 'Worst defect'], ['defects', 'Defects (C/M/m)']]
        .map(([k, label]) => `<th data-sort="${k}" class="sortable${sort.key === k ? (sort.dir > 0 ? ' asc' : ' desc') : ''}" aria-sort="${sort.key === k ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none'}">${label}</th>`)
        .join('')}<th></th></tr></thead>
      <tbody>${sorted(evs)
        .map((e) => {
          const c = { critical: 0, major: 0, minor: 0 };
          for (const d of e.defects) c[d.severity]++;
          const other = sibling(e);
          return `<tr data-testid="eval-row" class="row-${h(e.verdict)}"><td>${verdictTag(e)}</td><td>${h(e.queryId)}${e.cached ? ' <span class="tag">cached</span>' : ''}</td><td><a href="#/eval/${e.n}" data-testid="eval-link">${h(e.candidate)}</a>${trialTag(e)}${e.unstable && trialOf(e) ? ` ${unstableTag(trialOf(e))}` : ''}</td><td>${num(e.scores && e.scores.functionality)}</td><td>${num(e.scores && e.scores.aesthetics)}</td><td>${num(e.scores && e.scores.total)}</td><td class="worst" data-testid="worst">${worstText(e)}</td><td>${c.critical}/${c.major}/${c.minor}</td><td>${other ? `<a href="#/compare/${e.n}/${other.n}" data-testid="compare-link">compare</a>` : ''}</td></tr>`;
        })
        .join('')}</tbody></table>`;
    app.querySelectorAll('th[data-sort]').forEach((th) =>
      th.addEventListener('click', () => {
        sort.dir = sort.key === th.dataset.sort ? -sort.dir : 1;
        sort.key = th.dataset.sort;
        board();
      }),
    );
    app.querySelectorAll('select[data-filter]').forEach((s) =>
      s.addEventListener('change', () => {
        filters[s.dataset.filter] = s.value;
        board();
      }),
    );
  }

  function evalPage(n) {
    const e = DATA.evaluations.find((x) => String(x.n) === String(n));
    if (!e) return (app.innerHTML = '<p>Unknown evaluation. <a href="#/">Back</a></p>');
    const d = need(n);
    if (!d) return (app.innerHTML = `<p class="muted">Loading ${h(e.id)}…</p>`);
    const seek = (ms) => `data-seek="${ms}"`;
    const defectItem = (i, top) => {
      const x = e.defects[i];
      const info = (d.defectInfo || [])[i] || {};
      const at = info.atMs ?? null;
      const thumb = top && info.thumb ? `<img class="thumb" data-testid="defect-thumb" src="data/${n}/${h(info.thumb)}" alt="keyframe of: ${h(x.title)}" ${at !== null ? seek(at) : ''}>` : '';
      return `<li class="sev-${h(x.severity)}${top ? ' top' : ''}" data-testid="${top ? 'top-defect' : 'defect'}">${thumb}<div><span class="tag">${h(x.severity)}</span> <span class="tag">${h(x.dimension)}</span> <b>${h(x.title)}</b> ${x.deduction ? `(−${x.deduction})` : ''}${info.location ? ` <code class="loc" data-testid="defect-location">${h(info.location)}</code>` : ''}<div class="muted">${h(x.detail)}</div>${at !== null ? `<button class="link" data-testid="defect-seek" ${seek(at)}>▶ step ${info.step} at ${(at / 1000).toFixed(1)} s in the video</button>` : info.step !== null && info.step !== undefined ? `<span class="muted small">step ${info.step}</span>` : ''}</div></li>`;
    };
    const rank = e.rank || e.defects.map((_, i) => i);
    const defects = rank.map((i) => defectItem(i, false)).join('');
    const top = rank.slice(0, 3).map((i) => defectItem(i, true)).join('');
    const other = sibling(e);
    const s8 = (k) => `<p class="muted small">0–8: static ${num(e.static8 && e.static8[k])} → final ${num(e.final8 && e.final8[k])}</p>`;
    const thr = (k) => (e.thresholds && e.thresholds[k] !== undefined ? `<p class="small ${e.scores && e.scores[k] < e.thresholds[k] ? 'vt-fail' : 'muted'}">threshold ${num(e.thresholds[k])}</p>` : '');
    app.innerHTML = `
      <p class="nav"><a href="#/">← All evaluations</a>${other ? ` · <a href="#/compare/${e.n}/${other.n}" data-testid="compare-link">compare with ${h(other.candidate)}</a>` : ''}</p>
      <section class="verdict v-${h(e.verdict)}" data-testid="verdict">
        <div class="badge">${e.verdict === 'pass' ? '✓ PASS' : e.verdict === 'fail' ? '✗ FAIL' : '⚠ ERROR'}</div>
        <div><h1>${h(e.candidate)} <span class="muted">on</span> ${h(e.queryId)}</h1><p class="why" data-testid="why">${h(e.why)}</p></div>
      </section>
      ${trialSection(e)}
      <section class="scores" data-testid="scores">
        <div><h3>Functionality</h3><p class="big">${num(e.scores && e.scores.functionality)}</p>${s8('functionality')}${thr('functionality')}</div>
        <div><h3>Aesthetics</h3><p class="big">${num(e.scores && e.scores.aesthetics)}</p>${s8('aesthetics')}${thr('aesthetics')}</div>
        <div><h3>Total</h3><p class="big">${num(e.scores && e.scores.total)}</p><p class="muted small">0–100, mean of both</p>${thr('total')}</div>
      </section>
      ${top ? `<h2>Top defects</h2><ul class="defects top" data-testid="top-defects">${top}</ul>` : '<p class="muted" data-testid="top-defects">No defects found.</p>'}
      <p class="muted">${h(e.query.prompt)}</p>
      <p><span class="tag">${h(e.mode)}</span> <span class="tag">${h(e.query.language)}</span> <span class="tag">${h(e.query.kind)}</span> ${e.query.category ? `<span class="tag">${h(e.query.category)}</span>` : ''} <span class="muted">status ${h(e.status)}</span> ${e.error ? `<span class="muted">${h(e.error.stage)}: ${h(e.error.message)}</span>` : ''}</p>
      <details open><summary>Why these scores</summary><ul>${e.reasons.map((r) => `<li>${h(r)}</li>`).join('')}</ul></details>
      ${e.build ? `<h2>Build</h2><p>${h(e.build.step)} failed: ${h(e.build.summary)}</p><pre>${h(e.build.logTail)}</pre>` : ''}
      <h2>Screenshots</h2><div class="shots">${d.screenshots.map((s) => `<figure><img loading="lazy" src="data/${n}/${h(s.file)}" alt="${h(s.label)}"><figcaption>${h(s.label)}</figcaption></figure>`).join('')}</div>
      <h2>Interaction</h2>
      <div class="player">
        ${d.video ? `<video id="video" data-testid="video" controls preload="metadata" ${d.poster ? `poster="data/${n}/${h(d.poster)}"` : ''} src="data/${n}/${h(d.video)}"></video>` : `<p class="muted">${h(d.videoNote || 'No video.')}</p>`}
        <ol class="trace" data-testid="trace">${d.steps
          .map((s) => `<li data-step="${s.index}" ${s.video ? `data-start="${s.video.startMs}" data-end="${s.video.endMs}" ${seek(s.video.startMs)}` : ''} class="${s.changed ? 'changed' : 'nochange'} out-${h(s.outcome)}" data-testid="trace-step"><b>${s.index}</b> ${h(s.label)} <span class="${s.status === 'ok' ? 'muted' : 'err'}">${h(s.status)}${s.changed === false ? ', no visible change' : ''}</span><div class="muted small">${h(s.reasoning)}</div>${s.errors.length ? `<div class="err small">${s.errors.map(h).join('<br>')}</div>` : ''}</li>`)
          .join('')}</ol>
      </div>
      ${d.audio ? `<p class="muted">Audio: ${h(d.audio)}</p>` : ''}
      ${d.report ? `<details><summary>Agent report</summary><p>${h(d.report.observation)}</p><ul>${d.report.issuesFound.map((i) => `<li>${h(i.feature)}: ${h(i.action)} — expected ${h(i.expected)}, got ${h(i.actual)}</li>`).join('')}</ul></details>` : ''}
      <h2>All defects</h2><ul class="defects">${defects || '<li class="muted">None.</li>'}</ul>
      <h2>Console errors</h2>${d.consoleErrors.length ? `<ul class="console">${d.consoleErrors.map((c) => `<li class="${c.origin === 'environment' ? 'muted' : 'err'}">${h(c.text)} <span class="tag">${h(c.origin)}</span></li>`).join('')}</ul>` : '<p class="muted">None.</p>'}
      <h2>Rubric</h2><table class="rubric"><thead><tr><th>#</th><th>Item</th><th>Verdict</th><th>Method</th><th>Reason</th></tr></thead><tbody>${e.rubric.map((r) => `<tr class="v-${h(r.verdict)}"><td>${h(r.id)}</td><td>${h(r.name)}</td><td>${h(r.verdict)}</td><td class="small">${h(r.method)}</td><td class="small">${h(r.reason)}</td></tr>`).join('')}</tbody></table>
      <h2>Usage and cost</h2>${usageTable(e)}
      <h2>Timings</h2><p class="muted">${Object.entries(e.timings).map(([k, v]) => `${h(k)} ${(v / 1000).toFixed(1)} s`).join(' · ')}</p>`;
    const video = document.getElementById('video');
    app.querySelectorAll('[data-seek]').forEach((el) =>
      el.addEventListener('click', () => {
        if (!video) return;
        video.currentTime = Number(el.dataset.seek) / 1000 + 0.001;
        highlight(video.currentTime * 1000);
        if (el.closest('[data-testid="top-defect"]')) video.scrollIntoView({ block: 'center' });
      }),
    );
    if (video) video.addEventListener('timeupdate', () => highlight(video.currentTime * 1000));
  }

  /** On an evaluation page of a trial: which trial it is, the spread of its evaluation's trials (and why unstable), links to the others. */
  function trialSection(e) {
    const t = trialOf(e);
    if (!t) return '';
    const others = DATA.evaluations.filter((x) => x.trial && x.trial.baseId === t.id).sort((x, y) => x.trial.index - y.trial.index);
    return `<section class="trial-info" data-testid="trial-info"><p><b>Trial ${e.trial.index} of ${e.trial.of}</b> ${t.unstable ? unstableTag(t) : '<span class="tag">stable</span>'} ${h(t.line)}</p>
      <p class="small">${others.map((x) => (x.n === e.n ? `<b>trial ${x.trial.index}: ${num(x.scores && x.scores.total)}</b>` : `<a href="#/eval/${x.n}">trial ${x.trial.index}: ${num(x.scores && x.scores.total)}</a>`)).join(' · ')}</p></section>`;
  }

  function comparePage(a, b) {
    const ea = DATA.evaluations.find((x) => String(x.n) === String(a));
    const eb = DATA.evaluations.find((x) => String(x.n) === String(b));
    if (!ea || !eb) return (app.innerHTML = '<p>Unknown evaluation. <a href="#/">Back</a></p>');
    const da = need(a);
    const db = need(b);
    if (!da || !db) return (app.innerHTML = '<p class="muted">Loading…</p>');
    const same = DATA.evaluations.filter((x) => x.queryId === ea.queryId);
    const pick = (side, cur) => `<select data-side="${side}" data-testid="compare-select-${side}">${same.map((x) => `<option value="${x.n}" ${x.n === cur.n ? 'selected' : ''}>${h(x.candidate)}</option>`).join('')}</select>`;
    const col = (e, d, side) => {
      const shot = d.screenshots.find((s) => /1280/.test(s.label)) || d.screenshots[0];
      const rank = e.rank || e.defects.map((_, i) => i);
      return `<div class="side" data-testid="compare-side">
        <p>${pick(side, e)} ${verdictTag(e)}</p>
        <p class="small">${h(e.why)}</p>
        <table class="mini"><tr><th>F</th><th>A</th><th>Total</th></tr><tr><td>${num(e.scores && e.scores.functionality)}</td><td>${num(e.scores && e.scores.aesthetics)}</td><td><b>${num(e.scores && e.scores.total)}</b></td></tr></table>
        ${shot ? `<img class="shot" src="data/${e.n}/${h(shot.file)}" alt="${h(e.candidate)} at ${h(shot.label)}">` : '<p class="muted">No screenshot.</p>'}
        <ul class="defects">${rank.map((i) => e.defects[i]).map((x) => `<li class="sev-${h(x.severity)}"><span class="tag">${h(x.severity)}</span> ${h(x.title)}</li>`).join('') || '<li class="muted">No defects.</li>'}</ul>
        <p><a href="#/eval/${e.n}">Open the evaluation →</a></p></div>`;
    };
    app.innerHTML = `<p class="nav"><a href="#/">← All evaluations</a></p>
      <h1>${h(ea.queryId)}: side by side</h1><p class="muted">${h(ea.query.prompt)}</p>
      <div class="compare" data-testid="compare">${col(ea, da, 'a')}${col(eb, db, 'b')}</div>`;
    app.querySelectorAll('select[data-side]').forEach((sel) =>
      sel.addEventListener('change', () => {
        location.hash = sel.dataset.side === 'a' ? `#/compare/${sel.value}/${eb.n}` : `#/compare/${ea.n}/${sel.value}`;
      }),
    );
  }

  function highlight(ms) {
    app.querySelectorAll('.trace li[data-start]').forEach((li) => li.classList.toggle('current', ms >= Number(li.dataset.start) && ms < Number(li.dataset.end)));
  }

  function usageTable(e) {
    const rows = [];
    if (e.usage) rows.push(['agent', e.usage]);
    for (const s of e.judgeStages || []) rows.push([`judge: ${s.name} (prompt ${s.promptHash}, ${s.model})`, s.usage]);
    if (!rows.length) return '<p class="muted">No model calls (offline agent and judge).</p>';
    return `<table><thead><tr><th>Stage</th><th>Requests</th><th>Input tokens</th><th>Output tokens</th><th>Cost (USD)</th></tr></thead><tbody>${rows.map(([k, u]) => `<tr><td>${h(k)}</td><td>${u.requests}</td><td>${u.inputTokens}</td><td>${u.outputTokens}</td><td>${u.costUsd.toFixed(6)}</td></tr>`).join('')}</tbody></table>`;
  }

  function render() {
    const m = location.hash.match(/^#\/eval\/(\d+)/);
    const c = location.hash.match(/^#\/compare\/(\d+)\/(\d+)/);
    if (m) evalPage(m[1]);
    else if (c) comparePage(c[1], c[2]);
    else board();
    window.scrollTo(0, 0);
  }
  window.addEventListener('hashchange', render);
  render();
})();
