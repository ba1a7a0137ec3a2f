/**
 * Setup of the web unit tests (vitest.config.ts, project "web"). findBy… and waitFor give up after 1 s by
 * default; rendering antd in jsdom while the API tests run beside it on 2 cores can take longer. A longer
 * wait only matters when the expected text never comes, so it guards against a hang, never asserts speed.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
