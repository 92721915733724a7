/**
 * Screens keep their open dialog in the URL (?dialog=<kind>&<idParam>=<id>): links open dialogs, the back button
 * closes them, and a browser without JavaScript gets the same dialog rendered into the page.
 */
const withoutDialog = (search: string, idParam: string) => {
  const params = new URLSearchParams(search)
  params.delete('dialog')
  params.delete(idParam)
  params.sort()
  return params.toString()
}

/** True when only the dialog part of the URL changed: the data on screen is still current, nothing to reload. */
export function isDialogChange(
  from: { pathname: string; search: string },
  to: { pathname: string; search: string },
  idParam: string,
) {
  return (
    from.pathname === to.pathname &&
    from.search !== to.search &&
    withoutDialog(from.search, idParam) === withoutDialog(to.search, idParam)
  )
}
