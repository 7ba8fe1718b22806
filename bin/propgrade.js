#!/usr/bin/env node
// Thin launcher: the bundled CLI lives in dist/bundle/ (built by `npm ci` through the prepare script; scripts/bundle.mjs says why).
import { main } from '../dist/bundle/main.js';

// A closed pipe (`propgrade slate nba | head`) is a normal way to stop reading, not a crash.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
