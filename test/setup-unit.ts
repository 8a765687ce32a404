import { beforeEach } from 'vitest';
import { resetSteps } from './fixtures/evidence.js';

// Unit files share one module graph per worker (vitest.config.ts): module state of the fixtures is reset before
// every test, so a test sees the same step indices whichever files ran before it in the worker.
beforeEach(() => resetSteps());
