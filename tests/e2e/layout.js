// Measures a page for what a person sees as broken; returns a list of problems, each a short
// sentence naming the element (tests/e2e/test_layout.py).
(() => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const name = (el) => {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${
      el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''
    } "${text.slice(0, 24)}"`;
  };
  const shown = (el) => {
    if (el.closest('.visually-hidden, .skip-link, [hidden]')) return false;
    const folded = el.closest('details:not([open])');
    if (folded && !el.closest('summary')) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const clipped = (el) => {  // inside a scroller or clipper that itself fits the screen
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o !== 'visible') {
        const r = a.getBoundingClientRect();
        return r.left >= -1 && r.right <= vw + 1;
      }
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el) || (el.closest('svg') && el.tagName.toLowerCase() !== 'svg')) continue;
    const r = el.getBoundingClientRect();
    if ((r.right > vw + 1 || r.left < -1) && !clipped(el)) {
      problems.push(`wider than the screen (${Math.round(r.left)}..${Math.round(r.right)} of ${vw}): ${name(el)}`);
    }
  }
  if (document.documentElement.scrollWidth > vw + 1) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  }
  const interactive = [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary'
  )].filter((el) => {
    if (!shown(el)) return false;
    // a control drawn invisibly over its own visible stand-in (the settings switches)
    return getComputedStyle(el).opacity !== '0';
  });
  for (let i = 0; i < interactive.length; i++) {
    for (let j = i + 1; j < interactive.length; j++) {
      const a = interactive[i], b = interactive[j];
      if (a.contains(b) || b.contains(a)) continue;
      const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 2 && h > 2) problems.push(`overlap ${Math.round(w)}x${Math.round(h)}: ${name(a)} / ${name(b)}`);
    }
  }
  const ctx = document.createElement('canvas').getContext('2d');
  for (const label of document.querySelectorAll('label, legend')) {
    if (!shown(label)) continue;
    const text = label.innerText.trim();
    if ([...text].length < 2) continue;
    const s = getComputedStyle(label);
    ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const two = ctx.measureText([...text].slice(0, 2).join('')).width;
    if (label.getBoundingClientRect().width < two - 1) {
      problems.push(`label narrower than two characters: ${name(label)}`);
    }
  }
  const buttons = document.querySelectorAll(
    'button, input[type=submit], input[type=button], .btn'
  );
  for (const el of buttons) {
    if (!shown(el)) continue;
    const s = getComputedStyle(el);
    const filled = s.backgroundColor !== 'rgba(0, 0, 0, 0)' && s.backgroundColor !== 'transparent';
    const bordered = parseFloat(s.borderTopWidth) > 0 && !s.borderTopColor.endsWith(', 0)');
    const linkLike = s.textDecorationLine.includes('underline');
    if (!(filled || bordered || linkLike)) problems.push(`button drawn as plain text: ${name(el)}`);
    if (!linkLike && parseFloat(s.paddingLeft) < 4) problems.push(`button with no padding: ${name(el)}`);
  }
  return problems;
})
