import type { JSX } from 'preact';

/*
 * The UI's icons, drawn as inline SVG. Text glyphs (⏻, ⓘ, ☰, ⚠…) depend on the fonts of the
 * device: Debian's Chromium drew empty boxes for some of them. SVG draws the same everywhere,
 * needs no icon font (nothing to fetch, nothing for the CSP to allow) and takes `currentColor`.
 * Every icon is decoration (`aria-hidden`): the button or the text beside it carries the name.
 */

type IconProps = { readonly class?: string };

function Svg({ class: className, children }: IconProps & { children: JSX.Element | JSX.Element[] }) {
  return (
    <svg
      class={`icon${className ? ` ${className}` : ''}`}
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** Three lines: opens the session drawer. */
export const MenuIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Svg>
);

/** A door with an arrow leaving it: sign out. */
export const SignOutIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
    <path d="M16 17l5-5-5-5M21 12H9" />
  </Svg>
);

export const InfoIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 8h.01" />
  </Svg>
);

export const WarningIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M12 3 2 20h20L12 3z" />
    <path d="M12 10v4M12 17h.01" />
  </Svg>
);

export const CheckIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M5 12.5l4.5 4.5L19 7" />
  </Svg>
);

export const CrossIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Svg>
);

/** A clock face: still running. */
export const PendingIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Svg>
);

/** Points right when closed, down when open. */
export const ChevronIcon = ({ open, ...props }: IconProps & { readonly open: boolean }) => (
  <Svg {...props}>
    <path d={open ? 'M6 9l6 6 6-6' : 'M9 6l6 6-6 6'} />
  </Svg>
);

/** A paperclip: attach a file. */
export const PaperclipIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
  </Svg>
);

/** A page with a folded corner: a document (an attached PDF). */
export const DocumentIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8z" />
    <path d="M14 3v5h5M8 13h8M8 17h6" />
  </Svg>
);

/** A pencil: rename. */
export const PencilIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M4 20h4L19 9l-4-4L4 16v4z" />
    <path d="M13.5 6.5l4 4" />
  </Svg>
);

/** A bin: delete. */
export const TrashIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M4 7h16M10 11v6M14 11v6" />
    <path d="M6 7l1 13h10l1-13M9 7V4h6v3" />
  </Svg>
);
