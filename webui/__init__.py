"""The live web page's static assets (no build step, no CDN). A package so wheels carry it."""
