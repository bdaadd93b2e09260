#!/usr/bin/env node
// The `syllabus` bin of this package: runs the compiled client (`npm run build` writes dist/).
import '../dist/src/cli/main.js';
