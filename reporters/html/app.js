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

  window.__cookieEvalLoaded = (n, d) => {
    details[n] = d;
    if (location.hash === `#/eval/${n}`) render();
  };

  function options(key) {
    const vals = [...new Set(DATA.evaluations.map((e) => e.query && e.query[key]).filter(Boolean))].sort();
    return `<option value="">all</option>${vals.map((v) => `<option ${filters[key] === v ? 'selected' : ''}>${h(v)}</option>`).join('')}`;
  }

  function board() {
    const evs = DATA.evaluations.filter((e) => (!filters.category || e.query.category === filters.category) && (!filters.language || e.query.language === filters.language) && (!filters.difficulty || e.query.difficulty === filters.difficulty));
    const rows = aggregate(evs);
    const cell = (m) => (m ? `<td>${num(m.functionality)}</td><td>${num(m.aesthetics)}</td><td>${num(m.total)}</td>` : '<td>–</td><td>–</td><td>–</td>');
    app.innerHTML = `
      <header><h1>Cookie report</h1><p>${h(DATA.run.evaluations)} evaluations · Cookie ${h(DATA.run.cookieVersion)} · ${h(DATA.run.browserVersion)} · ${h(DATA.run.startedAt)}</p></header>
      <section class="filters" data-testid="filters">
        <label>Category <select data-filter="category">${options('category')}</select></label>
        <label>Language <select data-filter="language">${options('language')}</select></label>
        <label>Difficulty <select data-filter="difficulty">${options('difficulty')}</select></label>
        <span class="muted">${evs.length} evaluations shown</span>
      </section>
      <table class="board" data-testid="leaderboard">
        <thead><tr><th rowspan="2">#</th><th rowspan="2">Candidate</th><th rowspan="2">Mode</th><th colspan="3">Dynamic</th><th colspan="3">Static</th><th colspan="3">Overall</th><th rowspan="2">Runnable</th><th rowspan="2">Win rate</th><th rowspan="2">Cost (USD)</th><th rowspan="2">Generation (USD)</th><th rowspan="2">Judge (USD)</th><th rowspan="2">USD / point</th></tr>
        <tr><th>F</th><th>A</th><th>Total</th><th>F</th><th>A</th><th>Total</th><th>F</th><th>A</th><th>Total</th></tr></thead>
        <tbody>${rows
          .map((r, i) => `<tr data-testid="board-row"><td>${i + 1}</td><td>${h(r.candidate)}</td><td><span class="tag">${h(r.mode === 'react' ? 'React' : 'HTML')}</span></td>${cell(r.byPageType.dynamic)}${cell(r.byPageType.static)}${cell(r.overall)}<td>${pct(r.runnableRate)}</td><td>${pct(r.winRate)}</td><td>${r.usage.costUsd ? r.usage.costUsd.toFixed(4) : '–'}</td><td data-testid="generation-cost">${r.generation ? r.generationCostUsd.toFixed(4) : '–'}</td><td data-testid="judge-cost">${r.judgeCostUsd ? r.judgeCostUsd.toFixed(4) : '–'}</td><td data-testid="cost-per-point">${r.totalCostPerPoint !== null && (r.usage.costUsd || r.generationCostUsd) ? r.totalCostPerPoint.toFixed(6) : '–'}</td></tr>`)
          .join('')}</tbody>
      </table>
      <h2>Evaluations</h2>
      <table class="evals"><thead><tr><th>Query</th><th>Candidate</th><th>Status</th><th>F</th><th>A</th><th>Total</th><th>Defects (C/M/m)</th></tr></thead>
      <tbody>${evs
        .map((e) => {
          const c = { critical: 0, major: 0, minor: 0 };
          for (const d of e.defects) c[d.severity]++;
          return `<tr><td>${h(e.queryId)}${e.cached ? ' <span class="tag">cached</span>' : ''}</td><td><a href="#/eval/${e.n}" data-testid="eval-link">${h(e.candidate)}</a></td><td class="st-${h(e.status)}">${h(e.status)}</td><td>${num(e.scores && e.scores.functionality)}</td><td>${num(e.scores && e.scores.aesthetics)}</td><td>${num(e.scores && e.scores.total)}</td><td>${c.critical}/${c.major}/${c.minor}</td></tr>`;
        })
        .join('')}</tbody></table>`;
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
    const d = details[n];
    if (!d) {
      app.innerHTML = `<p class="muted">Loading ${h(e.id)}…</p>`;
      const s = document.createElement('script');
      s.src = `data/${n}/eval.js`;
      document.body.appendChild(s);
      return;
    }
    const seek = (ms) => `data-seek="${ms}"`;
    const defects = e.defects
      .map((x) => {
        const step = x.evidence && x.evidence.step !== undefined ? d.steps.find((s) => s.index === x.evidence.step) : null;
        const at = step && step.video ? step.video.startMs : null;
        return `<li class="sev-${h(x.severity)}" data-testid="defect"><span class="tag">${h(x.severity)}</span> <span class="tag">${h(x.dimension)}</span> <b>${h(x.title)}</b> ${x.deduction ? `(−${x.deduction})` : ''}<div class="muted">${h(x.detail)}</div>${at !== null ? `<button class="link" ${seek(at)}>▶ step ${step.index} at ${(at / 1000).toFixed(1)} s</button>` : ''}</li>`;
      })
      .join('');
    app.innerHTML = `
      <p><a href="#/">← Leaderboard</a></p>
      <header><h1>${h(e.candidate)} <span class="muted">on</span> ${h(e.queryId)}</h1>
      <p class="muted">${h(e.query.prompt)}</p>
      <p><span class="tag">${h(e.mode)}</span> <span class="tag">${h(e.query.language)}</span> <span class="tag">${h(e.query.kind)}</span> ${e.query.category ? `<span class="tag">${h(e.query.category)}</span>` : ''} <span class="st-${h(e.status)}">${h(e.status)}</span> ${e.error ? `<span class="muted">${h(e.error.stage)}: ${h(e.error.message)}</span>` : ''}</p></header>
      <section class="scores" data-testid="scores">
        <div><h3>Functionality</h3><p class="big">${num(e.scores && e.scores.functionality)}</p><p class="muted">0–8: static ${num(e.static8 && e.static8.functionality)} → final ${num(e.final8 && e.final8.functionality)}</p></div>
        <div><h3>Aesthetics</h3><p class="big">${num(e.scores && e.scores.aesthetics)}</p><p class="muted">0–8: static ${num(e.static8 && e.static8.aesthetics)} → final ${num(e.final8 && e.final8.aesthetics)}</p></div>
        <div><h3>Total</h3><p class="big">${num(e.scores && e.scores.total)}</p></div>
      </section>
      <details open><summary>Why these scores</summary><ul>${e.reasons.map((r) => `<li>${h(r)}</li>`).join('')}</ul></details>
      ${e.build ? `<h2>Build</h2><p>${h(e.build.step)} failed: ${h(e.build.summary)}</p><pre>${h(e.build.logTail)}</pre>` : ''}
      <h2>Screenshots</h2><div class="shots">${d.screenshots.map((s) => `<figure><img loading="lazy" src="data/${n}/${h(s.file)}" alt="${h(s.label)}"><figcaption>${h(s.label)}</figcaption></figure>`).join('')}</div>
      <h2>Interaction</h2>
      <div class="player">
        ${d.video ? `<video id="video" data-testid="video" controls preload="metadata" src="data/${n}/${h(d.video)}"></video>` : `<p class="muted">${h(d.videoNote || 'No video.')}</p>`}
        <ol class="trace" data-testid="trace">${d.steps
          .map((s) => `<li data-step="${s.index}" ${s.video ? `data-start="${s.video.startMs}" data-end="${s.video.endMs}" ${seek(s.video.startMs)}` : ''} class="${s.changed ? 'changed' : 'nochange'} out-${h(s.outcome)}" data-testid="trace-step"><b>${s.index}</b> ${h(s.label)} <span class="muted">${h(s.outcome)}${s.changed === false ? ', no visible change' : ''}</span><div class="muted small">${h(s.reasoning)}</div>${s.errors.length ? `<div class="err small">${s.errors.map(h).join('<br>')}</div>` : ''}</li>`)
          .join('')}</ol>
      </div>
      ${d.audio ? `<p class="muted">Audio: ${h(d.audio)}</p>` : ''}
      ${d.report ? `<details><summary>Agent report</summary><p>${h(d.report.observation)}</p><ul>${d.report.issuesFound.map((i) => `<li>${h(i.feature)}: ${h(i.action)} — expected ${h(i.expected)}, got ${h(i.actual)}</li>`).join('')}</ul></details>` : ''}
      <h2>Defects</h2><ul class="defects">${defects || '<li class="muted">None.</li>'}</ul>
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
      }),
    );
    if (video) video.addEventListener('timeupdate', () => highlight(video.currentTime * 1000));
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
    if (m) evalPage(m[1]);
    else board();
    window.scrollTo(0, 0);
  }
  window.addEventListener('hashchange', render);
  render();
})();
