/**
 * The one zod every schema is built with: `zod/mini`, whose functional API lets the bundler drop
 * what is unused (classic zod put ~440 KB into each bundle), configured with classic zod's English
 * issue texts, which logs and error messages quote ("Too small: expected number to be >=0").
 * Import it as a namespace (`import * as z from '…/shared/zod'`): importing zod's own `z` object
 * keeps every export alive, all locales included. Importing from here also guarantees the
 * configuration runs before any schema parses.
 */
import en from 'zod/v4/locales/en.js';
import { config } from 'zod/mini';

config(en());

export * from 'zod/mini';
