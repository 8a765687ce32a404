import { describe, expect, it } from 'vitest';
import { dropCdnIntegrity } from '../../src/common/cdn.js';
import { resolveCdn, resolveVendored } from '../../src/deploy/cdn.js';

const served = (url: string) => {
  const f = resolveCdn(url);
  return f && { from: f.rewrite.servedFrom, exact: f.rewrite.exact, type: f.contentType, bytes: f.body.length };
};

describe('offline CDN', () => {
  it.each([
    ['https://unpkg.com/react@18/umd/react.production.min.js', /^react@18\.\d+\.\d+\/umd\/react\.production\.min\.js$/, true],
    ['https://unpkg.com/react-dom@18/umd/react-dom.production.min.js', /^react-dom@18\.\d+\.\d+\/umd\/react-dom\.production\.min\.js$/, true],
    // Tailwind v3's Play CDN is v3 (`tailwind.config = {…}` works), one build per plugin set, older releases by path
    ['https://cdn.tailwindcss.com', /^tailwindcss-cdn@3\.4\.\d+\/tailwindcss\.js$/, true],
    ['https://cdn.tailwindcss.com?plugins=forms', /^tailwindcss-cdn@3\.4\.\d+\/tailwindcss-with-forms\.js$/, true],
    ['https://cdn.tailwindcss.com?plugins=forms,typography,aspect-ratio', /^tailwindcss-cdn@3\.4\.\d+\/tailwindcss-with-all-plugins\.js$/, true],
    ['https://cdn.tailwindcss.com/3.3.3', /^tailwindcss-cdn@3\.4\.\d+\/3\.3\.3\/tailwindcss\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/@tailwindcss/browser@4', /^@tailwindcss\/browser@4\.[\d.]+\/dist\/index\.global\.js$/, true],
    // each Chart.js major has its own copy: 3's chart.min.js and 2's Chart.min.js are UMD builds 4 lacks
    ['https://cdn.jsdelivr.net/npm/chart.js@3.9.1/dist/chart.min.js', /^chart\.js@3\.9\.\d+\/dist\/chart\.min\.js$/, true],
    ['https://cdnjs.cloudflare.com/ajax/libs/Chart.js/2.9.4/Chart.min.js', /^chart\.js@2\.9\.\d+\/dist\/Chart\.min\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/chart.js', /^chart\.js@4\.[\d.]+\/dist\/chart\.umd(\.min)?\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/vue@2.6.14/dist/vue.js', /^vue@2\.7\.\d+\/dist\/vue\.js$/, false],
    ['https://unpkg.com/vue@3/dist/vue.global.prod.js', /^vue@3\.[\d.]+\/dist\/vue\.global\.prod\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/bootstrap@5.3.0/dist/css/bootstrap.min.css', /^bootstrap@5\.[\d.]+\/dist\/css\/bootstrap\.min\.css$/, false],
    ['https://cdn.jsdelivr.net/npm/bootstrap@5.3.0/dist/js/bootstrap.bundle.min.js', /^bootstrap@5\.[\d.]+\/dist\/js\/bootstrap\.bundle\.min\.js$/, false],
    ['https://stackpath.bootstrapcdn.com/bootstrap/4.5.2/css/bootstrap.min.css', /^bootstrap@4\.[\d.]+\/dist\/css\/bootstrap\.min\.css$/, false],
    ['https://cdn.jsdelivr.net/npm/bootstrap-icons@1.11.3/font/bootstrap-icons.min.css', /^bootstrap-icons@1\.[\d.]+\/font\/bootstrap-icons\.min\.css$/, false],
    // what else LLM-written pages load most: Alpine's documented `3.x.x`, Lucide's `@latest`, and friends
    ['https://cdn.jsdelivr.net/npm/alpinejs@3.x.x/dist/cdn.min.js', /^alpinejs@3\.[\d.]+\/dist\/cdn\.min\.js$/, true],
    ['https://unpkg.com/lucide@latest', /^lucide@0\.[\d.]+\/dist\/umd\/lucide\.min\.js$/, true],
    ['https://unpkg.com/aos@2.3.1/dist/aos.css', /^aos@2\.3\.\d+\/dist\/aos\.css$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/animate.css/4.1.1/animate.min.css', /^animate\.css@4\.1\.1\/animate\.min\.css$/, true],
    ['https://cdn.jsdelivr.net/npm/canvas-confetti@1.6.0/dist/confetti.browser.min.js', /^canvas-confetti@1\.[\d.]+\/dist\/confetti\.browser\.js$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/tone/14.8.49/Tone.js', /^tone@14\.[\d.]+\/build\/Tone\.js$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/howler/2.2.3/howler.min.js', /^howler@2\.2\.\d+\/dist\/howler\.min\.js$/, false],
    ['https://cdn.jsdelivr.net/npm/echarts@5.4.3/dist/echarts.min.js', /^echarts@5\.[\d.]+\/dist\/echarts\.min\.js$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/Sortable/1.15.0/Sortable.min.js', /^sortablejs@1\.15\.\d+\/Sortable\.min\.js$/, false],
    ['https://cdn.jsdelivr.net/npm/typed.js@2.0.12', /^typed\.js@2\.0\.12\/lib\/typed\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/typed.js@2.1.0/dist/typed.umd.js', /^typed\.js@2\.1\.\d+\/dist\/typed\.umd\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/swiper@11/swiper-bundle.min.js', /^swiper@11\.[\d.]+\/swiper-bundle\.min\.js$/, true],
    // Bootstrap's companions: Popper 1 for Bootstrap 4, Popper 2 for 5; Font Awesome 4.7 and 5 URLs
    ['https://cdn.jsdelivr.net/npm/popper.js@1.16.1/dist/umd/popper.min.js', /^popper\.js@1\.16\.\d+\/dist\/umd\/popper\.min\.js$/, true],
    ['https://cdnjs.cloudflare.com/ajax/libs/popper.js/1.16.1/umd/popper.min.js', /^popper\.js@1\.16\.\d+\/dist\/umd\/popper\.min\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/@popperjs/core@2.11.8/dist/umd/popper.min.js', /^@popperjs\/core@2\.[\d.]+\/dist\/umd\/popper\.min\.js$/, true],
    ['https://cdnjs.cloudflare.com/ajax/libs/font-awesome/4.7.0/css/font-awesome.min.css', /^@fortawesome\/fontawesome-free@4\.7\.0\/css\/font-awesome\.min\.css$/, true],
    ['https://stackpath.bootstrapcdn.com/font-awesome/4.7.0/css/font-awesome.min.css', /^font-awesome@4\.7\.0\/css\/font-awesome\.min\.css$/, true],
    ['https://use.fontawesome.com/releases/v5.15.4/css/all.css', /^@fortawesome\/fontawesome-free@6\.[\d.]+\/css\/all\.css$/, false],
    ['https://cdn.jsdelivr.net/npm/typed.js@2.0.12/lib/typed.min.js', /^typed\.js@2\.0\.12\/lib\/typed\.min\.js$/, true],
    ['https://cdnjs.cloudflare.com/ajax/libs/particles.js/2.0.0/particles.min.js', /^particles\.js@2\.0\.0\/particles\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/bootstrap-icons@1.11.3/font/fonts/bootstrap-icons.woff2', /^bootstrap-icons@1\.[\d.]+\/font\/fonts\/bootstrap-icons\.woff2$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/three.js/r128/three.min.js', /^three@0\.149\.\d+\/build\/three\.min\.js$/, false],
    ['https://cdn.jsdelivr.net/npm/three@0.187.0/build/three.module.js', /^three@0\.187\.\d+\/build\/three\.module\.js$/, true],
    ['https://cdnjs.cloudflare.com/ajax/libs/Chart.js/4.4.0/chart.umd.min.js', /^chart\.js@4\.[\d.]+\/dist\/chart\.umd\.(min\.)?js$/, false],
    ['https://d3js.org/d3.v7.min.js', /^d3@7\.[\d.]+\/dist\/d3\.min\.js$/, true],
    ['https://cdn.jsdelivr.net/npm/gsap@3.12.2/dist/gsap.min.js', /^gsap@3\.[\d.]+\/dist\/gsap\.min\.js$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/p5.js/1.9.0/p5.min.js', /^p5@1\.[\d.]+\/lib\/p5\.min\.js$/, false],
    ['https://cdn.jsdelivr.net/npm/p5@1.9.0/lib/p5.min.js', /^p5@1\.[\d.]+\/lib\/p5\.min\.js$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/animejs/3.2.1/anime.min.js', /^animejs@3\.[\d.]+\/lib\/anime\.min\.js$/, false],
    ['https://cdn.jsdelivr.net/npm/matter-js@0.19.0/build/matter.min.js', /^matter-js@0\.[\d.]+\/build\/matter\.min\.js$/, false],
    ['https://cdn.jsdelivr.net/npm/cannon-es@0.20.0/dist/cannon-es.js', /^cannon-es@0\.20\.\d+\/dist\/cannon-es\.js$/, true],
    ['https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.4.0/css/all.min.css', /^@fortawesome\/fontawesome-free@6\.[\d.]+\/css\/all\.min\.css$/, false],
    ['https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.4.0/webfonts/fa-solid-900.woff2', /^@fortawesome\/fontawesome-free@6\.[\d.]+\/webfonts\/fa-solid-900\.woff2$/, false],
    ['https://unpkg.com/@babel/standalone/babel.min.js', /^@babel\/standalone@7\.[\d.]+\/babel\.min\.js$/, true],
  ])('%s', (url, from, exact) => {
    const s = served(url)!;
    expect(s).not.toBeNull();
    expect(s.from).toMatch(from);
    expect(s.exact).toBe(exact);
    expect(s.bytes).toBeGreaterThan(1000);
  });

  it('serves JavaScript, CSS and fonts with their content types', () => {
    expect(served('https://unpkg.com/react@18/umd/react.production.min.js')!.type).toMatch(/javascript/);
    expect(served('https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.4.0/css/all.min.css')!.type).toBe('text/css');
    expect(served('https://fonts.googleapis.com/css2?family=Inter:wght@400;700')).toMatchObject({ type: 'text/css', from: 'system fonts (empty stylesheet)' });
  });

  it('leaves what it does not have unresolved', () => {
    expect(resolveCdn('https://cdn.jsdelivr.net/npm/some-unknown-lib@1.0.0/index.js')).toBeNull();
    expect(resolveCdn('https://api.example.com/data.json')).toBeNull();
    expect(resolveCdn('https://cdn.jsdelivr.net/npm/three@0.187.0/examples/jsm/does-not-exist.js')).toBeNull();
  });

  it('never answers a classic script with an ES module found by the .min.js → .js fallback', () => {
    // Chart.js 4 has no chart.min.js, and its chart.js is an ES module ("Cannot use import statement outside a module")
    expect(resolveCdn('https://cdn.jsdelivr.net/npm/chart.js@4.4.0/dist/chart.min.js')).toBeNull();
    // an ES module asked for as one is still served
    expect(served('https://cdn.jsdelivr.net/npm/chart.js@4.4.0/dist/chart.js')!.from).toMatch(/^chart\.js@4\.[\d.]+\/dist\/chart\.js$/);
  });

  it('stands in for well-known vendored builds missing beside a page', () => {
    expect(resolveVendored('http://127.0.0.1:1/lib/react-dom.production.min.js')!.rewrite.servedFrom).toMatch(/^react-dom@18/);
    expect(resolveVendored('http://127.0.0.1:1/lib/tailwind.min.js')!.rewrite.servedFrom).toMatch(/^tailwindcss-cdn@3\.4\.\d+\/tailwindcss\.js$/);
    expect(resolveVendored('http://127.0.0.1:1/app.js')).toBeNull();
  });

  it('drops the integrity hash only from the tags whose library the offline CDN serves, and says which', () => {
    const html = `<head><link href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css" rel="stylesheet" integrity="sha384-T3c6CoIi6uLrA9TneNEoa7RxnatzjcDSCmG1MXxSR1GAsXEV/Dwwykc2MPK8M2HN" crossorigin="anonymous">
<script src='//cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/js/bootstrap.bundle.min.js' integrity='sha384-C6RzsynM9kWDrMNeT87bh95OGNyZPhcTNXj1NW7RuBCsyN/o0jlpcV8Qyq46cDfL' crossorigin=anonymous></script>
<script src="https://cdn.example.org/own-lib.js" integrity="sha384-abc"></script><script src="app.js" integrity="sha384-local"></script></head>`;
    const r = dropCdnIntegrity(html, (u) => resolveCdn(u) !== null);
    expect(r.urls).toEqual(['https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css', 'https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/js/bootstrap.bundle.min.js']);
    expect(r.html.match(/integrity=/g)).toHaveLength(2);
    expect(r.html).toContain('integrity="sha384-abc"');
    expect(r.html).toContain('integrity="sha384-local"');
    expect(r.html).toContain('crossorigin="anonymous">');
    // a page without any hash is returned as is
    expect(dropCdnIntegrity('<p>hi</p>', () => true)).toEqual({ html: '<p>hi</p>', urls: [] });
  });
});
