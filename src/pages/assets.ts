/** Static site assets besides the stylesheet. */

/** The site icon: three lines of a syllabus on a rounded square. Pure shapes, no fonts or scripts. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3572a5"/><stop offset="1" stop-color="#7a4fd0"/></linearGradient></defs>
<rect width="32" height="32" rx="8" fill="url(#g)"/>
<rect x="8" y="9" width="16" height="3" rx="1.5" fill="#fff"/>
<rect x="8" y="15" width="12" height="3" rx="1.5" fill="#fff"/>
<rect x="8" y="21" width="14" height="3" rx="1.5" fill="#fff"/>
</svg>
`;
