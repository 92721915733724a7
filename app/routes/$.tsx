import { redirect } from '@remix-run/node'

/** Any path the product does not have goes to the sign-in page (the spec's route table). */
export function loader() {
  return redirect('/login')
}

export function action() {
  return redirect('/login')
}
