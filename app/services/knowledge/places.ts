import { continents, countries } from 'countries-list'

// Places a customer names where a shop's text names a region ("do you ship to Brazil?" — "we cannot deliver to
// South America"): each country, by its English and native name and its capital, with its country's name, its
// continent and, in the European Union, "EU" (docs/decisions/043). World knowledge no list of shop words holds.

/** The European Union's members (ISO 3166-1 alpha-2), which countries-list does not record. */
const EUROPEAN_UNION = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
)

/**
 * Names that are more often something else in a shop's conversations: a jersey, a guernsey, wellington boots,
 * bermuda shorts, a turkey, china, a Panama hat.
 */
const NOT_PLACES = new Set([
  'jersey',
  'guernsey',
  'wellington',
  'bermuda',
  'turkey',
  'china',
  'chad',
  'jordan',
  'georgia',
  'panama',
  'victoria',
  'hamilton',
  'stanley',
  'kingston',
  'georgetown',
  'jamestown',
  'cayenne',
])

const lower = (name: string) => name.normalize('NFKC').toLowerCase().trim()

/** Each place name (lower-cased) with the words that name the same region in a shop's text. */
export const PLACES: ReadonlyMap<string, readonly string[]> = (() => {
  const places = new Map<string, Set<string>>()
  for (const [code, country] of Object.entries(countries)) {
    const region = [
      lower(country.name),
      lower(continents[country.continent as keyof typeof continents]),
      ...(EUROPEAN_UNION.has(code) ? ['eu'] : []),
      'country',
      'countries',
    ]
    const names = [
      country.name,
      country.native,
      country.capital,
      ...(('alias' in country && country.alias) || []),
    ]
      .filter((name): name is string => typeof name === 'string' && /^[\p{Script=Latin}\s.'-]+$/u.test(name))
      .map(lower)
    for (const name of names) {
      if (name.length < 3 || NOT_PLACES.has(name)) continue
      const words = places.get(name) ?? new Set<string>()
      for (const word of region) if (word !== name) words.add(word)
      places.set(name, words)
    }
  }
  return new Map([...places].map(([name, words]) => [name, [...words]]))
})()
