import { defineSpec } from 'cookie-eval';

export default defineSpec({
  query: { id: 'counter', prompt: 'Make a counter with a button that adds one.', language: 'en', kind: 'dynamic' },
  candidates: [{ name: 'plain', mode: 'html', path: 'counter.html' }],
  fixtures: {
    // typed: page is Playwright's Page, evidence is Cookie's Evidence
    page: async ({ page, evidence }, use) => {
      await page.addInitScript(() => localStorage.setItem('start', '41'));
      await use(page);
      evidence.custom = { title: await page.title() };
    },
  },
});
