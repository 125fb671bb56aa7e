import type { ReactNode } from 'react';

/**
 * A table of records (lists, campaigns) named by its section's title, in a box that scrolls
 * sideways on its own in zoomed or narrow windows, never the page. `columns` are the header texts;
 * `actions` adds a last header for the rows' buttons, named for screen readers only.
 */
export function ListTable({
  labelledBy,
  columns,
  actions = false,
  children,
}: {
  labelledBy: string;
  columns: readonly string[];
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" role="region" aria-labelledby={labelledBy} tabIndex={0} data-scroll-x>
      <table className="lists-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
