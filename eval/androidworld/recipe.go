package androidworld

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

const recipesPkg = "com.fairy.recipes"

// recipeRows draws n recipes with distinct titles, as recipe._generate_random_recipe
// does (a recipe of the benchmark's list with a drawn description, servings and
// preparation time).
func recipeRows(g *gen, n int) []sim.Record {
	titles := sample(g.r, g.list("recipe._RECIPES.title"), n)
	var out []sim.Record
	for _, t := range titles {
		out = append(out, sim.Record{"title": t, "description": pick(g.r, g.list("recipe.descriptions")),
			"servings": pick(g.r, g.list("recipe._SERVINGS_OPTIONS")), "preparationTime": pick(g.r, g.list("recipe._PREP_TIME_OPTIONS")),
			"ingredients": pick(g.r, g.list("recipe.ingredient_descriptors")), "directions": pick(g.r, g.list("recipe.directions_additions"))})
	}
	return slices.Clip(out)
}

// recipeAddSingle is RecipeAddSingleRecipe: one recipe, given in one of the benchmark's two
// text forms, added among 10 noise recipes.
func recipeAddSingle(g *gen) (*instance, error) {
	all := recipeRows(g, 11)
	target := all[0]
	for i, r := range all[1:] {
		r["id"] = fmt.Sprintf("n%d", i+1)
	}
	rows := shuffleRows(g, all[1:])
	setup, err := seed(recipesPkg+":recipes", rows)
	if err != nil {
		return nil, err
	}
	fields := []string{"title", "description", "servings", "preparationTime", "ingredients", "directions"}
	var text string
	if g.r.IntN(2) == 0 {
		var vals []string
		for _, f := range fields {
			vals = append(vals, target[f])
		}
		text = strings.Join(fields, "|") + "\n" + strings.Join(vals, "|")
	} else {
		text = "Recipe: " + target["title"] + "\n"
		for _, f := range fields[1:] {
			text += " " + f + ": " + target[f] + "\n"
		}
	}
	fill := []string{`Input "recipe_title" "${title}"`, `Input "recipe_description" "${description}"`, `Input "recipe_servings" "${servings}"`,
		`Input "recipe_prep" "${prep}"`, `Input "recipe_ingredients" "${ingredients}"`, `Input "recipe_directions" "${directions}"`}
	want := map[string]string{}
	for _, f := range fields {
		want[f] = target[f]
	}
	return &instance{
		instruction: appNames.Replace("Add the following recipes into the Broccoli app:\n" + text),
		setup:       []string{setup},
		checks:      []eval.CustomCheck{&rowsCheck{Collection: recipesPkg + ":recipes", Before: rows, Added: []map[string]string{want}}},
		walk: []walkthrough.Task{walk(recipesPkg, `item "`+q(target["title"])+`" id=recipe_row`,
			walkthrough.Step{Screen: `"Add recipe" id=add_recipe`, Subgoal: "Start a new recipe", Do: []string{`Tap "Add recipe"`}},
			walkthrough.Step{Screen: `id=recipe_title`, When: `\ntitle\|description\|servings\|preparationTime\|ingredients\|directions\n(?P<title>[^|\n]+)\|(?P<description>[^|\n]+)\|(?P<servings>[^|\n]+)\|(?P<prep>[^|\n]+)\|(?P<ingredients>[^|\n]+)\|(?P<directions>[^|\n]+)`,
				Subgoal: "Fill in the recipe", Do: fill},
			walkthrough.Step{Screen: `id=recipe_title`, When: `Recipe: (?P<title>[^\n]+)\n description: (?P<description>[^\n]+)\n servings: (?P<servings>[^\n]+)\n preparationTime: (?P<prep>[^\n]+)\n ingredients: (?P<ingredients>[^\n]+)\n directions: (?P<directions>[^\n]+)`,
				Subgoal: "Fill in the recipe", Do: fill},
			walkthrough.Step{Screen: `"` + q(target["title"]) + `" id=recipe_title`, Subgoal: "Save the recipe", Do: []string{`Tap "Save"`}},
		)},
	}, nil
}
